export interface ByteStream {
  /** The next `n` bytes of the stream. The returned bytes are never overwritten later. */
  read(n: number): Uint8Array;
}

export interface ChaChaStreamOptions {
  /** 12-byte RFC 8439 nonce; zeros by default (each operation has its own key, so no reuse). */
  nonce?: Uint8Array;
  /** RFC 8439 initial block counter; 0 by default. */
  counter?: number;
  /** Keystream bytes generated per refill; a multiple of 64 keeps blocks aligned. */
  chunkSize?: number;
}

const DEFAULT_CHUNK = 256;

/**
 * ChaCha20 keystream (RFC 8439) as a byte stream, computed in JavaScript: every operation has a
 * key of its own and most read a few bytes, and creating an OpenSSL cipher costs about 50 µs —
 * far more than the few blocks an operation needs. The stream covers 2^32 − counter blocks
 * (256 GiB from counter 0) and fails past that.
 */
export function createChaChaStream(key: Uint8Array, options: ChaChaStreamOptions = {}): ByteStream {
  if (key.length !== 32) throw new RangeError(`ChaCha20 key must be 32 bytes, got ${key.length}`);
  const nonce = options.nonce ?? new Uint8Array(12);
  if (nonce.length !== 12) throw new RangeError(`ChaCha20 nonce must be 12 bytes, got ${nonce.length}`);
  const counter = options.counter ?? 0;
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff) {
    throw new RangeError('ChaCha20 block counter must be a uint32');
  }
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  if (!Number.isInteger(chunkSize) || chunkSize <= 0)
    throw new RangeError('chunk size must be a positive integer');
  const blocksPerRefill = Math.ceil(chunkSize / 64);

  const state = new Uint32Array(16);
  state.set(SIGMA);
  const keyView = new DataView(key.buffer, key.byteOffset, 32);
  for (let i = 0; i < 8; i++) state[4 + i] = keyView.getUint32(i * 4, true);
  state[12] = counter;
  const nonceView = new DataView(nonce.buffer, nonce.byteOffset, 12);
  for (let i = 0; i < 3; i++) state[13 + i] = nonceView.getUint32(i * 4, true);
  let blocksLeft = 2 ** 32 - counter;

  // Each refill is a fresh buffer, so views handed out earlier stay valid and unchanged.
  let buffer: Uint8Array = new Uint8Array(0);
  let offset = 0;

  const refill = (): void => {
    const blocks = Math.min(blocksPerRefill, blocksLeft);
    if (blocks === 0) throw new RangeError('ChaCha20 keystream exhausted');
    buffer = keystreamBlocks(state, blocks);
    blocksLeft -= blocks;
    offset = 0;
  };

  return {
    read(n: number): Uint8Array {
      if (!Number.isInteger(n) || n < 0) throw new RangeError('read length must be a non-negative integer');
      if (offset + n <= buffer.length) {
        const view = buffer.subarray(offset, offset + n);
        offset += n;
        return view;
      }
      const out = new Uint8Array(n);
      let filled = 0;
      while (filled < n) {
        if (offset === buffer.length) refill();
        const take = Math.min(n - filled, buffer.length - offset);
        out.set(buffer.subarray(offset, offset + take), filled);
        offset += take;
        filled += take;
      }
      return out;
    },
  };
}

/** "expand 32-byte k" */
const SIGMA = Uint32Array.of(0x61707865, 0x3320646e, 0x79622d32, 0x6b206574);

/** `blocks` keystream blocks from `state`, advancing its block counter (word 12). */
function keystreamBlocks(state: Uint32Array, blocks: number): Uint8Array {
  const out = new Uint8Array(blocks * 64);
  const view = new DataView(out.buffer);
  const x = new Uint32Array(16);
  for (let b = 0; b < blocks; b++) {
    x.set(state);
    for (let round = 0; round < 10; round++) {
      quarter(x, 0, 4, 8, 12);
      quarter(x, 1, 5, 9, 13);
      quarter(x, 2, 6, 10, 14);
      quarter(x, 3, 7, 11, 15);
      quarter(x, 0, 5, 10, 15);
      quarter(x, 1, 6, 11, 12);
      quarter(x, 2, 7, 8, 13);
      quarter(x, 3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) view.setUint32(b * 64 + i * 4, (x[i] + state[i]) >>> 0, true);
    state[12] = (state[12] + 1) >>> 0;
  }
  return out;
}

function quarter(x: Uint32Array, a: number, b: number, c: number, d: number): void {
  x[a] = (x[a] + x[b]) >>> 0;
  x[d] = rotl(x[d] ^ x[a], 16);
  x[c] = (x[c] + x[d]) >>> 0;
  x[b] = rotl(x[b] ^ x[c], 12);
  x[a] = (x[a] + x[b]) >>> 0;
  x[d] = rotl(x[d] ^ x[a], 8);
  x[c] = (x[c] + x[d]) >>> 0;
  x[b] = rotl(x[b] ^ x[c], 7);
}

function rotl(v: number, n: number): number {
  return ((v << n) | (v >>> (32 - n))) >>> 0;
}
