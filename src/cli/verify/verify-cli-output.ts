// What `tyche verify` and tyche-verify.mjs print: one line per check, what was not checked and
// how to check it, and the verdict — or the same as one JSON object with --json. A
// tyche-draw-v1 result never reads as plainly valid: its randomness is the operator's word.

import { OPERATOR_TRUST_LABEL, type Report } from '../../proof/verifier.ts';

/** Something the verifier could check with one more input, and which option gives it. */
export interface NotChecked {
  id: string;
  label: string;
  detail: string;
}

export interface VerifyResult {
  /** Lines naming what was verified, printed before the checks. */
  heading: string[];
  report: Report;
  notChecked: NotChecked[];
  /** Lines after the checks: e.g. whether an entrant is in the sealed list and won. */
  summary: string[];
  /** Fields only the JSON form carries (ids, the entrant's outcome). */
  extra: Record<string, unknown>;
}

/** A failed chain check with no --drand-chain given: say how to give the chain's key. */
export function chainHint(report: Report, chainsGiven: number): NotChecked[] {
  const chain = report.checks.find((c) => c.id === 'beacon-chain');
  if (!chain || chain.ok || chainsGiven > 0) return [];
  return [
    {
      id: 'drand-chain',
      label: 'drand chain key',
      detail: "only quicknet's is built in; pass --drand-chain with the chain's /info (file or URL)",
    },
  ];
}

/** v1's trust line is a statement about the draw, not something a verifier can check. */
const isStatement = (id: string) => id === 'trust';

export function verdictOf(report: Report): string {
  const counted = report.checks.filter((c) => !isStatement(c.id));
  const failed = counted.filter((c) => !c.ok).length;
  if (failed > 0 || counted.length === 0) return `INVALID: ${failed} of ${counted.length} checks failed.`;
  const warned = counted.filter((c) => c.warning !== undefined).map((c) => c.label);
  const passed = warned.length
    ? `no check failed, ${warned.length} with a warning (${warned.join(', ')})`
    : 'every check passed';
  return report.trust === 'operator'
    ? `VALID (${report.algorithm}): ${passed}, but ${OPERATOR_TRUST_LABEL}.`
    : `VALID: ${passed}.`;
}

/** Prints the result and returns the exit status: 0 valid, 1 a check failed. */
export function emit(result: VerifyResult, out: (line: string) => void, json: boolean): number {
  const { report } = result;
  const verdict = verdictOf(report);
  const valid = verdict.startsWith('VALID');
  if (json) {
    out(
      JSON.stringify(
        {
          valid,
          algorithm: report.algorithm,
          trust: report.trust,
          ...(report.trust === 'operator' ? { trust_label: OPERATOR_TRUST_LABEL } : {}),
          ...result.extra,
          checks: report.checks,
          not_checked: result.notChecked,
          verdict,
        },
        null,
        2,
      ),
    );
    return valid ? 0 : 1;
  }
  for (const line of result.heading) out(line);
  if (result.heading.length > 0) out('');
  for (const c of report.checks) {
    if (c.ok && c.warning !== undefined && !isStatement(c.id)) {
      out(`! ${c.label}: warning: ${c.warning}`);
      continue;
    }
    const mark = isStatement(c.id) ? '•' : c.ok ? '✓' : '✗';
    out(`${mark} ${c.label}: ${c.detail}`);
  }
  for (const n of result.notChecked) out(`- ${n.label}: ${n.detail}`);
  if (result.summary.length > 0) out('');
  for (const line of result.summary) out(line);
  out('');
  out(verdict);
  return valid ? 0 : 1;
}
