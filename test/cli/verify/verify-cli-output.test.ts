import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emit, type VerifyResult } from '../../../src/cli/verify/verify-cli-output.ts';
import { SEAL_OPERATOR_ONLY } from '../../../src/proof/outside-evidence.ts';
import { makeCheck, report, warnCheck } from '../../../src/proof/report.ts';

const result = (): VerifyResult => ({
  heading: [],
  report: report('tyche-draw-v2', 'public', [
    makeCheck('seal-signature', 'Seal signature', null, 'valid'),
    warnCheck('seal-time', 'Seal time', SEAL_OPERATOR_ONLY),
  ]),
  notChecked: [],
  summary: [],
  extra: {},
});

describe('verify output: a warning is neither a pass nor a failure', () => {
  test('text: its own mark and the warning, exit 0', () => {
    const lines: string[] = [];
    assert.equal(
      emit(result(), (l) => lines.push(l), false),
      0,
    );
    assert.ok(lines.includes('✓ Seal signature: valid'));
    assert.ok(lines.includes('! Seal time: warning: seal time attested by the operator only'));
    assert.ok(!lines.some((l) => l.startsWith('✓ Seal time')));
    assert.equal(lines.at(-1), 'VALID: no check failed, 1 with a warning (Seal time).');
  });

  test('--json: the check carries the warning field, valid stays true', () => {
    const lines: string[] = [];
    assert.equal(
      emit(result(), (l) => lines.push(l), true),
      0,
    );
    const json = JSON.parse(lines.join('\n'));
    assert.equal(json.valid, true);
    assert.deepEqual(json.checks[1], {
      id: 'seal-time',
      label: 'Seal time',
      ok: true,
      detail: SEAL_OPERATOR_ONLY,
      warning: SEAL_OPERATOR_ONLY,
    });
    assert.equal(json.checks[0].warning, undefined);
  });
});
