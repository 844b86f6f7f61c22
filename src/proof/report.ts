// What every verifier prints: one named line per check, and the verdict. Shared by the server,
// the CLI, the browser and the standalone verifier, so a failed check reads the same everywhere.

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
}

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

export function makeCheck(id: string, label: string, problem: string | null, okDetail: string): Check {
  return problem === null
    ? { id, label, ok: true, detail: okDetail }
    : { id, label, ok: false, detail: problem };
}

/** A check that did not fail but is not a pass either: `ok` stays true, so `valid` is unchanged. */
export function warnCheck(id: string, label: string, warning: string): Check {
  return { id, label, ok: true, detail: warning, warning };
}

/** A check whose computation threw: bad data is a failed check, never an exception. */
export function guarded(id: string, label: string, run: () => Check): Check {
  try {
    return run();
  } catch (error) {
    return { id, label, ok: false, detail: `cannot be checked: ${(error as Error).message}` };
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
