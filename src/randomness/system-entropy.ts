import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 64 * 1024;
let pool = new Uint8Array(0);
let offset = 0;

/**
 * `n` bytes from the operating system's CSPRNG, each handed out once. A call into the CSPRNG
 * costs a few microseconds whatever its size, so small requests are served from a 64 KiB block
 * drawn at once; every refill is a fresh block, so bytes handed out earlier never change.
 */
export function systemBytes(n: number): Uint8Array {
  if (n > POOL_BYTES / 16) return randomFillSync(new Uint8Array(n));
  if (offset + n > pool.length) {
    pool = randomFillSync(new Uint8Array(POOL_BYTES));
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}
