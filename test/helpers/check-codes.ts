import { AMENDMENT_CHECKS } from '../../src/proof/amendments.ts';
import { CHECK_DETAILS, OTHER_LABELS } from '../../src/proof/check-phrases.ts';
import { V2_LABELS } from '../../src/proof/verify-seal.ts';
import { V1_LABELS } from '../../src/proof/verify-v1.ts';

/** Every label code a check of proof/ can carry: its id in a label table, `v1-<id>`, or another. */
export const CHECK_LABEL_CODES: readonly string[] = [
  ...Object.keys(V2_LABELS),
  ...Object.keys(V1_LABELS).map((id) => `v1-${id}`),
  ...Object.keys(AMENDMENT_CHECKS),
  ...Object.keys(OTHER_LABELS),
];

/** Every detail code. */
export const CHECK_DETAIL_CODES: readonly string[] = Object.keys(CHECK_DETAILS);
