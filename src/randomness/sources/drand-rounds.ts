import { createHash } from 'node:crypto';
import { beaconProblem } from '../../proof/drand.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { SourceError } from '../source.ts';
import { type FetchFn, fetchJson, readFields } from './http-json.ts';

/** A drand round whose BLS signature verified under the configured chain. */
export interface VerifiedRound {
  round: number;
  randomness: string;
  signature: string;
}

export interface DrandRounds {
  readonly chain: Readonly<DrandChainInfo>;
  /** The newest round the relay serves, verified; throws SourceError when it cannot be had. */
  latest(): Promise<VerifiedRound>;
  /** Round `n`, verified; undefined while it is not published yet. Throws on a bad signature. */
  round(n: number): Promise<VerifiedRound | undefined>;
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/**
 * The committed rounds of verifiable draws. Unlike the randomness cascade, nothing here falls
 * back to another source: a committed draw waits for its round, whatever happens to the relay.
 */
export function createDrandRounds(options: {
  url: string;
  chain: Readonly<DrandChainInfo>;
  timeoutMs?: number;
  fetch?: FetchFn;
}): DrandRounds {
  const { chain, timeoutMs = 5000 } = options;
  const base = `${options.url.replace(/\/+$/, '')}/${chain.hash}/public/`;

  async function get(path: string): Promise<VerifiedRound> {
    const body = await fetchJson({ source: 'drand', url: base + path, timeoutMs, fetch: options.fetch });
    const fields = readFields('drand', body, 'body');
    const beacon = {
      round: fields.int('round', 1),
      randomness: Buffer.from(fields.hex('randomness', 32)).toString('hex'),
      signature: Buffer.from(fields.hex('signature', 48)).toString('hex'),
    };
    const problem = beaconProblem(chain, beacon, sha256);
    if (problem !== null) throw new SourceError('drand', `round ${beacon.round} rejected: ${problem}`);
    return beacon;
  }

  return {
    chain,
    latest: () => get('latest'),
    async round(n) {
      try {
        const beacon = await get(String(n));
        if (beacon.round !== n) throw new SourceError('drand', `asked for round ${n}, got ${beacon.round}`);
        return beacon;
      } catch (error) {
        // Relays answer a future round with 404 (or 425 Too Early); that is "not yet", not a failure.
        if (error instanceof SourceError && /^HTTP (404|425)\b/.test(error.message.replace(/^drand: /, ''))) {
          return undefined;
        }
        throw error;
      }
    },
  };
}
