// What backs a seal's time besides the operator's word (CONTRACT §8, §13). Each source checks its
// own evidence — witness cosignatures (log-evidence.ts), and RFC 3161 tokens as another kind — and
// hands over the attestations that passed; this file counts them against the committed round and
// gives the one verdict line, which a reader may turn from a warning into a requirement.

import { phrase } from './check-phrases.ts';
import { type Check, isRecord, makeCheck, warnCheck } from './report.ts';

/** Where an attestation comes from: a witness cosignature now, a TSA's token as the next kind. */
export type OutsideKind = 'witness' | 'timestamp';

/** One attestation that its source has verified: who made it, and the time it gives the seal. */
export interface OutsideAttestation {
  kind: OutsideKind;
  /** The witness's key name, or the TSA: counted once however often it attests. */
  by: string;
  /** Epoch milliseconds: the cosignature's time, or the token's genTime. */
  at: number;
}

export const SEAL_OPERATOR_PROOF = 'operator-proof: seal witnessed or timestamped before the round';
export const SEAL_OPERATOR_ONLY = 'seal time attested by the operator only';

const SEAL_TIME = { id: 'seal-time', label: 'Seal time' } as const;

const NOUN: Record<OutsideKind, [string, string]> = {
  witness: ['witness', 'witnesses'],
  timestamp: ['TSA', 'TSAs'],
};

const plural = (n: number, [one, many]: [string, string]) => `${n} ${n === 1 ? one : many}`;

/** The committed round's time in a seal, or NaN when it has none. */
export function sealRoundAt(seal: unknown): number {
  const beacon = isRecord(seal) && isRecord(seal.beacon) ? seal.beacon : undefined;
  return typeof beacon?.round_at === 'string' ? Date.parse(beacon.round_at) : Number.NaN;
}

/** The attestations dated before `roundAtMs`, each attester once (the earliest of its attestations). */
export function outsideBefore(items: readonly OutsideAttestation[], roundAtMs: number): OutsideAttestation[] {
  const first = new Map<string, OutsideAttestation>();
  for (const item of items) {
    if (!(item.at < roundAtMs)) continue;
    const key = `${item.kind}\n${item.by}`;
    const seen = first.get(key);
    if (!seen || item.at < seen.at) first.set(key, item);
  }
  return [...first.values()];
}

/** "1 witness, 2 TSAs" */
function describe(items: readonly OutsideAttestation[]): string {
  return (Object.keys(NOUN) as OutsideKind[])
    .map((kind) => [kind, items.filter((i) => i.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => plural(n, NOUN[kind]))
    .join(', ');
}

/**
 * §13's verdict line for the seal: operator-proof when at least one outside attestation dates it
 * before its round, else a warning — or a failure when the reader requires `required` of them
 * (`--require-outside N`, `?require_outside=N`) and fewer back the seal.
 */
export function sealTimeCheck(items: readonly OutsideAttestation[], seal: unknown, required = 0): Check {
  const { id, label } = SEAL_TIME;
  const before = outsideBefore(items, sealRoundAt(seal));
  const n = before.length;
  const need = `${plural(required, ['outside attestation is', 'outside attestations are'])} required`;
  if (n === 0) {
    return required > 0
      ? makeCheck(id, label, `${SEAL_OPERATOR_ONLY}, and ${need}`, '')
      : warnCheck(id, label, phrase('seal-time-operator-only'));
  }
  if (n < required) {
    return makeCheck(id, label, `only ${describe(before)} dated the seal before the round; ${need}`, '');
  }
  const asked = required > 0 ? `; ${required} required` : '';
  const count = (kind: OutsideKind) => before.filter((b) => b.kind === kind).length;
  const proof = phrase(
    'seal-time-outside',
    { witnesses: count('witness'), tsas: count('timestamp'), required: asked },
    `${SEAL_OPERATOR_PROOF} (${describe(before)}${asked})`,
  );
  return makeCheck(id, label, null, proof);
}

/** The check a tyche-draw-v1 draw gets when outside evidence is required: it has no seal to date. */
export function noSealCheck(required: number): Check {
  return makeCheck(
    SEAL_TIME.id,
    SEAL_TIME.label,
    `${required} outside attestation${required === 1 ? ' is' : 's are'} required, but an instant draw has no seal for them to date`,
    '',
  );
}

/** `--require-outside N` / `?require_outside=N`: a whole number from 0 to 100, or why not. */
export function parseRequiredOutside(text: string | null | undefined): number | string {
  if (text === null || text === undefined || text === '') return 0;
  if (!/^(?:0|[1-9][0-9]{0,2})$/.test(text.trim()) || Number(text) > 100) {
    return `${JSON.stringify(text)} is not a whole number of outside attestations from 0 to 100`;
  }
  return Number(text.trim());
}
