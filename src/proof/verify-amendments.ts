// The amendment checks every certificate verifier adds when a published certificate carries
// amendments (CONTRACT §14): the chain (sequence, previous hash, hash, signature, time) and the
// reserve order, by proof/amendments.ts, and that the `amended_winners` published beside them
// are the winners those amendments give. Log inclusion of each amendment is log-gather.ts's.

import { AMENDMENT_CHECKS, checkAmendments } from './amendments.ts';
import { phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import { type Check, isRecord, makeCheck } from './report.ts';
import type { EntrantWinner } from './v2-types.ts';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function amendedWinnersProblem(published: unknown, computed: readonly EntrantWinner[]): string | null {
  if (!Array.isArray(published)) return 'amended_winners is not a list';
  if (published.length !== computed.length) {
    return `${published.length} amended winners are published, the amendments give ${computed.length}`;
  }
  for (const [i, want] of computed.entries()) {
    const got = published[i];
    const same =
      isRecord(got) &&
      got.position === want.position &&
      got.index === want.index &&
      got.leaf_hash === want.leaf_hash &&
      got.telegram_id === want.telegram_id;
    if (!same) {
      const shown = isRecord(got) ? `index ${String(got.index)}` : 'no entrant';
      return `position ${want.position} is published as ${shown}; the amendments give index ${want.index}`;
    }
  }
  return null;
}

/**
 * The checks of a certificate's `amendments` and `amended_winners` annotations; none when it
 * carries neither. Each failure is its own line, named by its check and its amendment.
 */
export function amendmentChecks(input: {
  certificate: unknown;
  annotations: Record<string, unknown>;
  keys: unknown;
  sha256: Sha256;
}): Check[] {
  const { annotations } = input;
  if (!('amendments' in annotations) && !('amended_winners' in annotations)) return [];
  const verdict = checkAmendments({
    certificate: input.certificate,
    amendments: annotations.amendments ?? [],
    keys: input.keys,
    sha256: input.sha256,
  });
  const checks = verdict.failures.map((f) =>
    makeCheck(
      f.check,
      f.at > 0 ? `${AMENDMENT_CHECKS[f.check]} (amendment ${f.at})` : AMENDMENT_CHECKS[f.check],
      f.detail,
      '',
    ),
  );
  const n = Array.isArray(annotations.amendments) ? annotations.amendments.length : 0;
  if (verdict.valid) {
    checks.push(
      makeCheck(
        'amendments',
        'Amendments',
        null,
        phrase(
          'amendments-ok',
          { count: n },
          `${plural(n, 'amendment')} in sequence, each chained to the one before by its hash, signed by a published key, and taking the next unused reserve`,
        ),
      ),
    );
  }
  if (verdict.amendedWinners && 'amended_winners' in annotations) {
    const problem = amendedWinnersProblem(annotations.amended_winners, verdict.amendedWinners);
    checks.push(
      makeCheck(
        'amended-winners',
        'Amended winners',
        problem,
        phrase(
          'amended-winners-ok',
          { count: n },
          `the winners published as amended are the certificate's winners after ${plural(n, 'amendment')}`,
        ),
      ),
    );
  }
  return checks;
}
