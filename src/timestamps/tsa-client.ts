import type { AnchorInput } from '../proof/timestamp/anchors.ts';

/**
 * The RFC 3161 code (pkijs, asn1js: about 100 ms to load) comes with the first request, not with
 * every process that builds the services (each CLI command does).
 */
async function tokenCode() {
  const { randomNonce, timeStampRequest, timestampImprint } = await import(
    '../proof/timestamp/tsa-request.ts'
  );
  const { readTimeStampResponse } = await import('../proof/timestamp/tsa-response.ts');
  const { checkTimestampToken } = await import('../proof/timestamp/token-check.ts');
  return { randomNonce, timeStampRequest, timestampImprint, readTimeStampResponse, checkTimestampToken };
}

/** One request to one TSA for the token of one signed object. */
export interface TsaAsk {
  url: string;
  /** The signed object's `hash`, hex. */
  hash: string;
  anchors: readonly AnchorInput[];
  /** A seal's `round_at` (epoch ms): a token from that time on proves nothing and is not kept. */
  notAfter?: number | undefined;
  /** The service's clock, read when the answer arrives (genTime must be within 10 minutes of it). */
  now(): Date;
  /** Ends the request: the time it is allowed, shared by every TSA asked at once. */
  signal: AbortSignal;
  fetch?: typeof fetch;
}

export type TsaOutcome = { ok: true; token: Uint8Array; genTime: Date } | { ok: false; reason: string };

/** A token with its certificates is a few KiB; an answer past this is not one. */
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * CONTRACT §13: asks one TSA (RFC 3161 over HTTP) and keeps its token only when every check
 * passes, under the caller's own anchors. Every failure, of the network or of the token, comes
 * back as a reason rather than an exception: the caller counts it and a durable job asks again.
 */
export async function askTsa(ask: TsaAsk): Promise<TsaOutcome> {
  const { randomNonce, timeStampRequest, timestampImprint, readTimeStampResponse, checkTimestampToken } =
    await tokenCode();
  let body: Uint8Array;
  const nonce = randomNonce();
  try {
    const request = timeStampRequest(await timestampImprint(ask.hash), nonce);
    const res = await (ask.fetch ?? fetch)(ask.url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body: request,
      signal: ask.signal,
    });
    body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) return { ok: false, reason: `HTTP ${res.status}` };
    if (body.byteLength > MAX_ANSWER_BYTES) return { ok: false, reason: 'an oversized answer' };
  } catch (error) {
    if (ask.signal.aborted) return { ok: false, reason: 'no answer within the time allowed' };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, reason: `cannot reach it: ${cause ?? (error as Error).message}` };
  }
  const answer = readTimeStampResponse(body);
  if (!answer.granted) return { ok: false, reason: answer.reason };
  const check = await checkTimestampToken(answer.token, {
    hash: ask.hash,
    nonce,
    anchors: ask.anchors,
    notAfter: ask.notAfter,
    now: ask.now(),
  });
  if (!check.ok || !check.genTime) return { ok: false, reason: check.reason ?? 'the token has no time' };
  return { ok: true, token: answer.token, genTime: check.genTime };
}
