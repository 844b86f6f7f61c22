// The verifiers' side of CONTRACT §13: every RFC 3161 token a published seal or certificate
// carries (`seal_timestamps`, `certificate_timestamps`) checked against anchors the verifier
// brings — the shipped roots plus the reader's own, never the token's chain alone. A seal's token
// must date it before its round; a certificate's, after the round and not in the future. Each
// valid seal token is an outside attestation of the seal's time (outside-evidence.ts).

import { phrase } from '../check-phrases.ts';
import { type OutsideAttestation, sealRoundAt } from '../outside-evidence.ts';
import { type Check, HEX32, isRecord, makeCheck, type Report } from '../report.ts';
import type { AnchorInput } from './anchors.ts';
import { checkTimestampToken, MAX_SKEW_MS } from './token-check.ts';
import { TSA_ROOTS } from './tsa-roots.ts';

/** Which signed object a token dates. */
export type StampedKind = 'seal' | 'certificate';

/** One carried token, as the verifier judged it, in the order the document lists them. */
export interface TokenVerdict {
  of: StampedKind;
  /** Its place in the document's list. */
  index: number;
  /** The TSA URL the document names (the operator's word). */
  tsa: string;
  /** The name the token's own signer certificate gives, once it could be read. */
  tsaName: string | null;
  genTime: string | null;
  ok: boolean;
  reason: string | null;
}

interface TimestampEvidence {
  checks: Check[];
  /** The seal's valid tokens, as attestations of its time. */
  outside: OutsideAttestation[];
  tokens: TokenVerdict[];
}

interface TimestampInput {
  seal?: unknown;
  sealTimestamps?: unknown;
  certificate?: unknown;
  certificateTimestamps?: unknown;
  /** The reader's anchors (--tsa-trust, the page's own), beside the shipped roots. */
  tsaTrust?: readonly AnchorInput[];
  /** The verifier's clock, for "not in the future"; defaults to now. */
  now?: Date;
}

const LABEL: Record<StampedKind, string> = { seal: 'Seal timestamps', certificate: 'Certificate timestamps' };

/** The anchors every verifier carries: the shipped roots, then the reader's own. */
const verifierAnchors = (extra: readonly AnchorInput[] = []): AnchorInput[] => [
  ...TSA_ROOTS.map((root) => root.pem),
  ...extra,
];

interface Stamp {
  tsa: string;
  token: string;
}

function stampsOf(annotation: unknown): Stamp[] | string {
  if (annotation === undefined || annotation === null) return [];
  if (!Array.isArray(annotation)) return 'is not a list';
  for (const [i, s] of annotation.entries()) {
    if (!isRecord(s) || typeof s.tsa !== 'string' || typeof s.token !== 'string') {
      return `entry ${i} is not {"tsa", "gen_time", "token"}`;
    }
  }
  return annotation as Stamp[];
}

const nameOf = (t: TokenVerdict) => t.tsaName ?? t.tsa;

/** "2 of 3 TSAs (A, B)" */
function counted(good: readonly TokenVerdict[], all: number): string {
  const names = good.length ? ` (${good.map(nameOf).join(', ')})` : '';
  return `${good.length} of ${all} TSA${all === 1 ? '' : 's'}${names}`;
}

async function judge(
  of: StampedKind,
  stamps: readonly Stamp[],
  hash: string,
  anchors: readonly AnchorInput[],
  window: { before?: number; after?: number },
): Promise<TokenVerdict[]> {
  return Promise.all(
    stamps.map(async (stamp, index) => {
      const result = await checkTimestampToken(stamp.token, { hash, anchors, notAfter: window.before });
      let reason = result.reason;
      const at = result.genTime?.getTime();
      if (result.ok && window.after !== undefined && at !== undefined && !(at > window.after)) {
        reason = `genTime ${result.genTime?.toISOString()} is not after the round (${new Date(window.after).toISOString()})`;
      }
      return {
        of,
        index,
        tsa: stamp.tsa,
        tsaName: result.tsaName,
        genTime: result.genTime?.toISOString() ?? null,
        ok: reason === null,
        reason,
      };
    }),
  );
}

/** One line for one object's tokens: what passed, and every token that failed and why. */
function tokensCheck(of: StampedKind, tokens: readonly TokenVerdict[]): Check {
  const good = tokens.filter((t) => t.ok);
  const when = of === 'seal' ? 'seal timestamped before the round' : 'draw timestamped after the round';
  const summary = `${when} by ${counted(good, tokens.length)}`;
  const bad = tokens.filter((t) => !t.ok);
  const problem = bad.length
    ? `${summary}; failed: ${bad.map((t) => `${nameOf(t)} (${t.tsa}): ${t.reason}`).join('; ')}`
    : null;
  const names = good.length ? ` (${good.map(nameOf).join(', ')})` : '';
  const coded = phrase(
    of === 'seal' ? 'timestamps-seal' : 'timestamps-certificate',
    { good: good.length, all: tokens.length, names },
    summary,
  );
  return makeCheck(`${of}-timestamps`, LABEL[of], problem, coded);
}

async function evidenceOf(
  of: StampedKind,
  signed: unknown,
  annotation: unknown,
  anchors: readonly AnchorInput[],
  window: { before?: number; after?: number },
): Promise<{ check?: Check; tokens: TokenVerdict[] }> {
  const stamps = stampsOf(annotation);
  if (typeof stamps === 'string') {
    return { check: makeCheck(`${of}-timestamps`, LABEL[of], `${of}_timestamps ${stamps}`, ''), tokens: [] };
  }
  // No token: nothing to check here; the verdict on the seal's time says what that means.
  if (stamps.length === 0) return { tokens: [] };
  const hash = isRecord(signed) ? signed.hash : undefined;
  const problem =
    typeof hash !== 'string' || !HEX32.test(hash)
      ? `the ${of} has no hash to date`
      : of === 'seal' && window.before === undefined
        ? 'the seal names no round time to date its tokens against'
        : null;
  if (problem !== null || typeof hash !== 'string') {
    return { check: makeCheck(`${of}-timestamps`, LABEL[of], problem, ''), tokens: [] };
  }
  const tokens = await judge(of, stamps, hash, anchors, window);
  return { check: tokensCheck(of, tokens), tokens };
}

/** Every token of the seal and of the certificate, each judged; never throws. */
export async function timestampEvidence(input: TimestampInput): Promise<TimestampEvidence> {
  const anchors = verifierAnchors(input.tsaTrust);
  const roundAt = sealRoundAt(input.seal);
  const round = Number.isNaN(roundAt) ? undefined : roundAt;
  const now = (input.now ?? new Date()).getTime();
  const none: { check?: Check; tokens: TokenVerdict[] } = { tokens: [] };
  const [seal, certificate] = await Promise.all([
    input.seal === undefined
      ? none
      : evidenceOf('seal', input.seal, input.sealTimestamps, anchors, { before: round }),
    input.certificate === undefined
      ? none
      : evidenceOf('certificate', input.certificate, input.certificateTimestamps, anchors, {
          // After the round (a v1 draw has none), and not in the future beyond a clock's skew.
          after: round,
          before: now + MAX_SKEW_MS,
        }),
  ]);
  const checks = [seal.check, certificate.check].filter((c): c is Check => c !== undefined);
  const outside = seal.tokens
    .filter((t) => t.ok && t.genTime !== null)
    .map((t): OutsideAttestation => ({ kind: 'timestamp', by: nameOf(t), at: Date.parse(t.genTime!) }));
  return { checks, outside, tokens: [...seal.tokens, ...certificate.tokens] };
}

/** A verifier's report with its timestamp lines added, and what they found. */
export type Stamped<R extends Report> = R & { outside?: OutsideAttestation[]; timestamps?: TokenVerdict[] };

/** Adds the timestamp lines to a report: a token that fails fails the report. */
export async function withTimestamps<R extends Report>(
  base: R,
  input: TimestampInput,
): Promise<R & { outside: OutsideAttestation[]; timestamps: TokenVerdict[] }> {
  const found = await timestampEvidence(input);
  return {
    ...base,
    checks: [...base.checks, ...found.checks],
    valid: base.valid && found.checks.every((c) => c.ok),
    outside: found.outside,
    timestamps: found.tokens,
  };
}

/** The published document's tokens for `withTimestamps`: the seal's and the certificate's. */
export function documentTimestamps(
  signed: unknown,
  annotations: Record<string, unknown>,
): Pick<TimestampInput, 'seal' | 'sealTimestamps' | 'certificate' | 'certificateTimestamps'> {
  const seal = isRecord(signed) && isRecord(signed.seal) ? signed.seal : undefined;
  return {
    seal,
    sealTimestamps: annotations.seal_timestamps,
    certificate: signed,
    certificateTimestamps: annotations.certificate_timestamps,
  };
}
