// What Tyche asks a time-stamping authority (CONTRACT §13): a TimeStampReq (RFC 3161 §2.4.1) over
// the SHA-256 of a signed object's 32 raw hash bytes, with a fresh nonce, asking for the signer's
// certificate. Pure, so the fake TSA of the tests and any verifier build the same bytes.

import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { fromHex } from '../hex.ts';
import { OID } from './tsa-oids.ts';

const HASH_HEX = /^[0-9a-f]{64}$/;

/** The 32 raw bytes of a signed object's `hash` (lower-case hex, or the bytes). Throws on any other value. */
export function hashBytes(hash: string | Uint8Array): Uint8Array {
  if (typeof hash !== 'string') {
    if (hash.length !== 32) throw new Error(`a hash is 32 bytes, not ${hash.length}`);
    return hash;
  }
  if (!HASH_HEX.test(hash)) throw new Error('a hash is 64 lower-case hex digits');
  return fromHex(hash);
}

/** The message imprint a token for this object carries: SHA-256 over the 32 raw bytes of its `hash`. */
export async function timestampImprint(hash: string | Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', hashBytes(hash).slice()));
}

/** A fresh random 64-bit nonce, so an answer cannot be one recorded for another request. */
export function randomNonce(): bigint {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

/** The DER of TimeStampReq v1: SHA-256 imprint, the nonce, certReq true, no policy, no extensions. */
export function timeStampRequest(imprint: Uint8Array, nonce: bigint): Uint8Array<ArrayBuffer> {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: asn1js.Integer.fromBigInt(nonce),
    certReq: true,
  });
  return new Uint8Array(request.toSchema().toBER());
}
