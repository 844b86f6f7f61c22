// The one check of an RFC 3161 timestamp token (CONTRACT §13), run by the service before it keeps a
// token and by every verifier before it believes one: the imprint and nonce are the request's, the
// CMS signature verifies under the certificate the signed attributes name, that certificate is for
// time-stamping only and chains to an anchor the caller brought, valid at genTime, and genTime
// falls where the caller needs it. Pure (pkijs over globalThis.crypto): browser and Node alike.

import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual, fromBase64 } from '../hex.ts';
import { type AnchorInput, anchorCertificates, nameText } from './anchors.ts';
import { essCertIdProblem } from './ess-cert-id.ts';
import { chainProblem } from './tsa-chain.ts';
import { OID } from './tsa-oids.ts';
import { hashBytes, timestampImprint } from './tsa-request.ts';

/** CONTRACT §13: a token's genTime must be this close to the clock of whoever just asked for it. */
export const MAX_SKEW_MS = 10 * 60_000;

export interface TimestampCheckOptions {
  /**
   * The signed object's `hash` (64 lower-case hex digits, or its 32 raw bytes): the token's
   * messageImprint must be SHA-256 over those 32 bytes.
   */
  hash: string | Uint8Array;
  /** The nonce of the request the token answers; checked when given (a published token has none to compare). */
  nonce?: bigint;
  /** The caller's own trust anchors, DER or PEM; the token's certificates never become anchors. */
  anchors: readonly AnchorInput[];
  /** genTime must be strictly before this time (a seal's `round_at`). */
  notAfter?: Date | string | number;
  /** When given, genTime must lie within `maxSkewMs` of it (the service checking a fresh token). */
  now?: Date;
  maxSkewMs?: number;
}

export interface TimestampCheck {
  ok: boolean;
  /** The time the token states, once it could be read. */
  genTime: Date | null;
  /** Who signed it: the signer certificate's common name (or the TSA name the token gives). */
  tsaName: string | null;
  /** What failed, in words; null when ok. */
  reason: string | null;
}

interface ReadToken {
  signed: pkijs.SignedData;
  tst: pkijs.TSTInfo;
  /** The token's certificates, parsed from their own bytes (kept for hashing). */
  certificates: { cert: pkijs.Certificate; der: Uint8Array }[];
}

function readToken(der: Uint8Array): ReadToken | string {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || parsed.offset !== der.byteLength) return 'not one DER TimeStampToken';
  const info = new pkijs.ContentInfo({ schema: parsed.result });
  if (info.contentType !== OID.signedData) return 'not a CMS SignedData';
  const signed = new pkijs.SignedData({ schema: info.content });
  if (signed.encapContentInfo.eContentType !== OID.tstInfo || !signed.encapContentInfo.eContent) {
    return 'its content is not a TSTInfo';
  }
  const tst = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
  // The certificates [0] member of SignedData, each taken from its own bytes rather than re-encoded.
  const members = (info.content as asn1js.Sequence).valueBlock.value;
  const set = members.find((m) => m.idBlock.tagClass === 3 && m.idBlock.tagNumber === 0);
  const blocks = set instanceof asn1js.Constructed ? set.valueBlock.value : [];
  const certificates = blocks
    .filter((b) => b instanceof asn1js.Sequence)
    .map((b) => {
      const bytes = new Uint8Array(b.valueBeforeDecodeView);
      return { cert: pkijs.Certificate.fromBER(bytes), der: bytes };
    });
  return { signed, tst, certificates };
}

function ekuProblem(cert: pkijs.Certificate): string | null {
  const ext = cert.extensions?.find((e) => e.extnID === OID.extKeyUsage);
  const purposes = ext?.parsedValue instanceof pkijs.ExtKeyUsage ? ext.parsedValue.keyPurposes : [];
  const only = purposes.length === 1 && purposes[0] === OID.timeStamping;
  return ext?.critical && only ? null : 'signer certificate lacks a critical timeStamping EKU';
}

const toDate = (t: Date | string | number) => (t instanceof Date ? t : new Date(t));

/** Every check of one token; never throws. `token` is its DER, or the base64 that JSON carries. */
export async function checkTimestampToken(
  token: Uint8Array | string,
  options: TimestampCheckOptions,
): Promise<TimestampCheck> {
  let genTime: Date | null = null;
  let tsaName: string | null = null;
  const fail = (reason: string): TimestampCheck => ({ ok: false, genTime, tsaName, reason });
  let anchors: pkijs.Certificate[];
  try {
    anchors = anchorCertificates(options.anchors);
  } catch (error) {
    return fail(`a trust anchor cannot be read (${(error as Error).message})`);
  }
  try {
    const der = typeof token === 'string' ? fromBase64(token) : token;
    if (!der) return fail('the token is not base64');
    const read = readToken(der);
    if (typeof read === 'string') return fail(`the token is ${read}`);
    const { signed, tst, certificates } = read;
    genTime = tst.genTime;
    if (tst.tsa?.type === 4) tsaName = nameText(tst.tsa.value);

    const imprint = tst.messageImprint;
    if (imprint.hashAlgorithm.algorithmId !== OID.sha256) return fail('imprint is not SHA-256');
    const expected = await timestampImprint(options.hash);
    if (!bytesEqual(new Uint8Array(imprint.hashedMessage.valueBlock.valueHexView), expected)) {
      return fail('imprint does not match');
    }
    if (options.nonce !== undefined && tst.nonce?.toBigInt() !== options.nonce) {
      return fail('nonce does not match');
    }
    if (signed.signerInfos.length !== 1)
      return fail(`the token has ${signed.signerInfos.length} signers, not one`);

    let verified: pkijs.SignedDataVerifyResult;
    try {
      const data = hashBytes(options.hash).slice().buffer;
      verified = await signed.verify({ signer: 0, data, extendedMode: true });
    } catch (error) {
      const code = (error as pkijs.SignedDataVerifyError).code;
      if (code === 2 || code === 3) return fail('the token does not carry its signer certificate');
      return fail(`signature invalid (${(error as Error).message})`);
    }
    const signer = verified.signerCertificate;
    const own = certificates.find((c) => signer && bytesEqual(c.cert.tbsView, signer.tbsView));
    if (!signer || !own) return fail('the token does not carry its signer certificate');
    tsaName ??= nameText(signer.subject);
    if (!verified.signatureVerified) return fail('signature invalid');

    const problem =
      (await essCertIdProblem(signed.signerInfos[0].signedAttrs?.attributes ?? [], signer, own.der)) ??
      ekuProblem(signer) ??
      (await chainProblem({
        signer,
        intermediates: certificates.map((c) => c.cert),
        anchors,
        at: genTime,
      }));
    if (problem) return fail(problem);

    if (options.notAfter !== undefined && !(genTime < toDate(options.notAfter))) {
      return fail(`genTime ${genTime.toISOString()} is not before ${toDate(options.notAfter).toISOString()}`);
    }
    const maxSkewMs = options.maxSkewMs ?? MAX_SKEW_MS;
    if (options.now && Math.abs(genTime.getTime() - options.now.getTime()) > maxSkewMs) {
      return fail(
        `genTime ${genTime.toISOString()} is more than ${maxSkewMs / 60_000} minutes from ${options.now.toISOString()}`,
      );
    }
    return { ok: true, genTime, tsaName, reason: null };
  } catch (error) {
    return fail(`the token cannot be read (${(error as Error).message})`);
  }
}
