// What every verifier prints: one named line per check, and the verdict. Shared by the server,
// the CLI, the browser and the standalone verifier, so a failed check reads the same everywhere.

import { type DetailCode, type Params, type Phrase, phrase } from './check-phrases.ts';

export interface Check {
  id: string;
  label: string;
  /** False only when the check failed; a warning is not a failure. */
  ok: boolean;
  detail: string;
  /**
   * Set when the check did not fail but its evidence is weaker than a pass (e.g. a seal whose
   * time only the operator attests): what to warn about, shown with its own mark, never as passed.
   */
  warning?: string;
  /**
   * The label and detail as codes (check-phrases.ts) with the values they name, for a page in
   * another language; `label` and `detail` are their English. No detail code: English only.
   * Not enumerable (see withSays), so a copy by spread or JSON leaves it behind.
   */
  readonly says?: Says;
}

export interface Says {
  label: string;
  detail?: DetailCode;
  params?: Params;
}

/** A label as a code and values; a plain string is coded by the check's id. */
export interface Label {
  code: string;
  text: string;
  params?: Params;
}

/** A detail: coded (a Phrase) or English only. */
export type Detail = string | Phrase;

const textOf = (d: Detail): string => (typeof d === 'string' ? d : d.text);

/** The codes of a check's label and detail. */
export function saysOf(label: string | Label, id: string, detail: Detail): Says {
  const labelCode = typeof label === 'string' ? id : label.code;
  const params = {
    ...(typeof label === 'string' ? {} : label.params),
    ...(typeof detail === 'string' ? {} : detail.params),
  };
  return {
    label: labelCode,
    ...(typeof detail === 'string' ? {} : { detail: detail.code }),
    ...(Object.keys(params).length > 0 ? { params } : {}),
  };
}

const labelText = (label: string | Label) => (typeof label === 'string' ? label : label.text);

export interface Report {
  valid: boolean;
  algorithm: string;
  /** 'public': public data alone decides the draw; 'operator': the operator's randomness is taken on trust. */
  trust: 'public' | 'operator';
  checks: Check[];
}

/** How a tyche-draw-v1 certificate is labelled wherever it is shown (CONTRACT §7.7). */
export const OPERATOR_TRUST_LABEL = "the operator's randomness must be trusted";

export const HEX32 = /^[0-9a-f]{64}$/;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A positive safe integer. */
export const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

/**
 * Adds the codes as a property JSON and deep equality do not see: `--json`, reports compared
 * whole and the server's answers stay byte for byte what they were; a page reads `says` directly.
 */
function withSays(check: Check, label: string | Label, detail: Detail): Check {
  return Object.defineProperty(check, 'says', { value: saysOf(label, check.id, detail), enumerable: false });
}

export function makeCheck(
  id: string,
  label: string | Label,
  problem: Detail | null,
  okDetail: Detail,
): Check {
  const detail = problem ?? okDetail;
  const check = { id, label: labelText(label), ok: problem === null, detail: textOf(detail) };
  return withSays(check, label, detail);
}

/** A check that did not fail but is not a pass either: `ok` stays true, so `valid` is unchanged. */
export function warnCheck(id: string, label: string | Label, warning: Detail): Check {
  const text = textOf(warning);
  return withSays({ id, label: labelText(label), ok: true, detail: text, warning: text }, label, warning);
}

/** A check whose computation threw: bad data is a failed check, never an exception. */
export function guarded(id: string, label: string | Label, run: () => Check): Check {
  try {
    return run();
  } catch (error) {
    return makeCheck(id, label, phrase('cannot-check', { error: (error as Error).message }), '');
  }
}

export function report(algorithm: string, trust: Report['trust'], checks: Check[]): Report {
  return { valid: checks.length > 0 && checks.every((c) => c.ok), algorithm, trust, checks };
}

/** "1, 2, 3" or "1, 2, … (40 in all)". */
export function shortList(values: readonly (number | string)[], max = 10): string {
  return values.length <= max
    ? values.join(', ')
    : `${values.slice(0, max).join(', ')}, … (${values.length} in all)`;
}
