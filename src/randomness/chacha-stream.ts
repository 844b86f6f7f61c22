import { chacha20 } from '@noble/ciphers/chacha';

export interface ByteStream {
  /** The next `n` bytes of the stream. The returned bytes are never overwritten later. */
  read(n: number): Uint8Array;
  /** The next 4 bytes as a big-endian unsigned integer; a stream may offer it to spare a view. */
  uint32?(): number;
}

export interface ChaChaStreamOptions {
  /** 12-byte RFC 8439 nonce; zeros by default (each request has its own key, so no reuse). */
  nonce?: Uint8Array;
  /** RFC 8439 initial block counter; 0 by default. */
  counter?: number;
  /** Keystream bytes generated per refill; a multiple of 64 keeps blocks aligned. */
  chunkSize?: number;
}

const DEFAULT_CHUNK = 256;
/** The cipher refuses to run past this block counter, so the stream ends one block before it. */
const LAST_COUNTER = 0xffffffff;

let zeros = new Uint8Array(4096);

/**
 * ChaCha20 keystream (RFC 8439) as a byte stream, from @noble/ciphers: one key per request, the
 * keystream computed a chunk at a time (sized by the caller to what the request needs, so most
 * requests run the cipher once). The stream covers 2^32 − 1 − counter blocks from `counter`.
 */
export function createChaChaStream(key: Uint8Array, options: ChaChaStreamOptions = {}): Required<ByteStream> {
  if (key.length !== 32) throw new RangeError(`ChaCha20 key must be 32 bytes, got ${key.length}`);
  const nonce = options.nonce ?? new Uint8Array(12);
  if (nonce.length !== 12) throw new RangeError(`ChaCha20 nonce must be 12 bytes, got ${nonce.length}`);
  let counter = options.counter ?? 0;
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff) {
    throw new RangeError('ChaCha20 block counter must be a uint32');
  }
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  if (!Number.isInteger(chunkSize) || chunkSize <= 0)
    throw new RangeError('chunk size must be a positive integer');
  const blocksPerRefill = Math.ceil(chunkSize / 64);

  // Each refill is a fresh buffer, so views handed out earlier stay valid and unchanged.
  let buffer: Uint8Array = new Uint8Array(0);
  let offset = 0;

  const refill = (): void => {
    const blocks = Math.min(blocksPerRefill, LAST_COUNTER - counter);
    if (blocks <= 0) throw new RangeError('ChaCha20 keystream exhausted');
    const length = blocks * 64;
    if (zeros.length < length) zeros = new Uint8Array(length);
    buffer = chacha20(key, nonce, zeros.subarray(0, length), new Uint8Array(length), counter);
    counter += blocks;
    offset = 0;
  };

  const read = (n: number): Uint8Array => {
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
  };

  return {
    read,
    uint32(): number {
      if (offset + 4 > buffer.length) {
        const b = read(4);
        return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
      }
      const b = buffer;
      const o = offset;
      offset += 4;
      return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
    },
  };
}
