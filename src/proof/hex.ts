// Byte encodings of the proof core: lower-case hex out, either case in; strict base64url. Pure, so
// the browser and the standalone verifier load it unchanged.

const HEX_DIGITS = '0123456789abcdef';
const HEX_TEXT = /^[0-9a-fA-F]*$/;
const BASE64URL_TEXT = /^[A-Za-z0-9_-]*$/;

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_DIGITS[bytes[i] >> 4] + HEX_DIGITS[bytes[i] & 15];
  return out;
}

export function fromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !HEX_TEXT.test(hex)) {
    throw new TypeError('not a hex string');
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Unpadded base64url, or null. Unused trailing bits must be zero: otherwise two texts would name one value. */
export function fromBase64url(text: string): Uint8Array | null {
  if (typeof text !== 'string' || !BASE64URL_TEXT.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return toBase64url(bytes) === text ? bytes : null;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

const BASE64_TEXT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard padded base64 (RFC 4648 §4), as signed notes and checkpoints write it. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/** Padded standard base64, or null; like fromBase64url, only the one text that encodes the bytes. */
export function fromBase64(text: string): Uint8Array | null {
  if (typeof text !== 'string' || !BASE64_TEXT.test(text)) return null;
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  return toBase64(bytes) === text ? bytes : null;
}
