// CONTRACT §7.1: an entrant's leaf. Pure, for the server, the browser and the standalone verifier.
import type { Sha256 } from './draw-v1.ts';

export const ENTRANT_DOMAIN = 'tyche-entrant-v2';
export const SALT_BYTES = 16;
const DOMAIN = new TextEncoder().encode(ENTRANT_DOMAIN);
/** "tyche-entrant-v2" ‖ 0x00 ‖ salt (16) ‖ uint64_be(telegram_id) (8). */
export const LEAF_DATA_BYTES = DOMAIN.length + 1 + SALT_BYTES + 8;

export function entrantLeafData(salt: Uint8Array, telegramId: number | bigint): Uint8Array {
  if (salt.length !== SALT_BYTES) throw new RangeError(`salt must be ${SALT_BYTES} bytes`);
  const id = BigInt(telegramId);
  if (id < 1n || id >= 1n << 64n)
    throw new RangeError(`telegram_id ${telegramId} is not a positive 64-bit integer`);
  const out = new Uint8Array(LEAF_DATA_BYTES);
  out.set(DOMAIN, 0);
  out.set(salt, DOMAIN.length + 1);
  new DataView(out.buffer).setBigUint64(DOMAIN.length + 1 + SALT_BYTES, id);
  return out;
}

/** RFC 9162 leaf hash: SHA-256(0x00 ‖ leaf_data). */
export function entrantLeafHash(salt: Uint8Array, telegramId: number | bigint, sha256: Sha256): Uint8Array {
  const data = entrantLeafData(salt, telegramId);
  const prefixed = new Uint8Array(data.length + 1);
  prefixed.set(data, 1);
  return sha256(prefixed);
}
