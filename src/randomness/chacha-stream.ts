import { createCipheriv } from 'node:crypto';

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

const DEFAULT_CHUNK = 4096;

/**
 * ChaCha20 keystream as a byte stream. OpenSSL's chacha20 takes a 16-byte IV laid out as
 * 4-byte little-endian block counter ‖ 12-byte nonce, and encrypting zeros yields the keystream.
 * The stream covers 2^32 − counter blocks (256 GiB from counter 0); the cipher fails past that.
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

  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter, 0);
  iv.set(nonce, 4);
  const cipher = createCipheriv('chacha20', key, iv);
  const zeros = Buffer.alloc(chunkSize);

  // Each refill is a fresh buffer, so views handed out earlier stay valid and unchanged.
  let buffer: Uint8Array = new Uint8Array(0);
  let offset = 0;

  const refill = (): void => {
    buffer = cipher.update(zeros);
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
