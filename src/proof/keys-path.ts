/**
 * Where a Tyche server publishes the Ed25519 keys that sign its seals, tickets and certificates:
 * a JWK set, `{"keys": [JWK…]}`, retired keys included.
 */
export const KEYS_PATH = '/.well-known/tyche-keys.json';
