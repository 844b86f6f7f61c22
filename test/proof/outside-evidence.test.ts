import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  noSealCheck,
  type OutsideAttestation,
  outsideBefore,
  parseRequiredOutside,
  SEAL_OPERATOR_ONLY,
  SEAL_OPERATOR_PROOF,
  sealTimeCheck,
} from '../../src/proof/outside-evidence.ts';

const ROUND_AT = '2026-11-23T12:00:00.000Z';
const ROUND = Date.parse(ROUND_AT);
const seal = { beacon: { round_at: ROUND_AT } };
const witness = (by: string, at: number): OutsideAttestation => ({ kind: 'witness', by, at });
const token = (by: string, at: number): OutsideAttestation => ({ kind: 'timestamp', by, at });

describe('outside evidence of a seal time', () => {
  test('counted once per attester, only before the round, from any source', () => {
    const items = [
      witness('w1', ROUND - 10_000),
      witness('w1', ROUND - 20_000),
      witness('w2', ROUND),
      token('tsa.example', ROUND - 1),
      token('late.example', ROUND + 1),
    ];
    assert.deepEqual(outsideBefore(items, ROUND), [
      witness('w1', ROUND - 20_000),
      token('tsa.example', ROUND - 1),
    ]);
    assert.deepEqual(sealTimeCheck(items, seal), {
      id: 'seal-time',
      label: 'Seal time',
      ok: true,
      detail: `${SEAL_OPERATOR_PROOF} (1 witness, 1 TSA)`,
    });
    assert.equal(
      sealTimeCheck(items, seal, 2).detail,
      'operator-proof: seal witnessed or timestamped before the round (1 witness, 1 TSA; 2 required)',
    );
  });

  test('none: a warning, not a pass; a failure when the reader requires outside evidence', () => {
    const late = [witness('w1', ROUND), token('t', ROUND + 60_000)];
    assert.deepEqual(sealTimeCheck(late, seal), {
      id: 'seal-time',
      label: 'Seal time',
      ok: true,
      detail: SEAL_OPERATOR_ONLY,
      warning: SEAL_OPERATOR_ONLY,
    });
    assert.deepEqual(sealTimeCheck([], seal, 1), {
      id: 'seal-time',
      label: 'Seal time',
      ok: false,
      detail: 'seal time attested by the operator only, and 1 outside attestation is required',
    });
    const short = sealTimeCheck([witness('w1', ROUND - 1)], seal, 3);
    assert.equal(short.ok, false);
    assert.equal(
      short.detail,
      'only 1 witness dated the seal before the round; 3 outside attestations are required',
    );
    // A seal without a readable round time is dated by nothing.
    assert.equal(sealTimeCheck([witness('w1', 0)], { beacon: {} }).warning, SEAL_OPERATOR_ONLY);
    assert.equal(noSealCheck(2).ok, false);
    assert.match(
      noSealCheck(1).detail,
      /^1 outside attestation is required, but an instant draw has no seal/,
    );
  });

  test('--require-outside and ?require_outside read a whole number from 0 to 100', () => {
    for (const [text, expected] of [
      [undefined, 0],
      [null, 0],
      ['', 0],
      ['0', 0],
      ['1', 1],
      ['100', 100],
    ] as const) {
      assert.equal(parseRequiredOutside(text), expected, String(text));
    }
    for (const text of ['-1', '1.5', 'two', '101', '007', '1e2']) {
      assert.match(String(parseRequiredOutside(text)), /is not a whole number of outside attestations/, text);
    }
  });
});
