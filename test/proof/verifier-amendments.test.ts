import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { amendmentSummary } from '../../src/cli/verify/amendment-summary.ts';
import { entrantName, REASON_TEXT, standingAfterAmendments } from '../../src/proof/amendment-history.ts';
import type { Amendment } from '../../src/proof/amendments.ts';
import type { CertificateV2, EntrantWinner } from '../../src/proof/v2-types.ts';
import { type Check, verifyCertificate } from '../../src/proof/verifier.ts';

interface Fixture {
  keys: unknown;
  certificate: CertificateV2;
  valid: { amendments: Amendment[]; amended_winners: EntrantWinner[] };
  invalid: { name: string; amendments: unknown[]; failures: { check: string; at: number }[] }[];
}
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/amendment-vectors.json', import.meta.url), 'utf8'),
) as Fixture;
const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const AMENDMENT_IDS = /^amend/;

async function amendmentChecksOf(published: Record<string, unknown>): Promise<Check[]> {
  const report = await verifyCertificate({ certificate: published, keys: fixture.keys, sha256 });
  return report.checks.filter((c) => AMENDMENT_IDS.test(c.id));
}
const amended = (amendments: unknown[], winners: unknown = fixture.valid.amended_winners) => ({
  ...fixture.certificate,
  log_index: 3,
  amendments,
  amended_winners: winners,
});
/** A broken chain as a document would carry it: the winners it gives cannot be published. */
const brokenChain = (amendments: unknown[]) => ({ ...fixture.certificate, log_index: 3, amendments });

/** CONTRACT §14: the one verifier (server, CLI, pages, tyche-verify.mjs) checks the amendments beside a certificate. */
describe('verifyCertificate checks the amendments a certificate carries', () => {
  test('a valid chain and its amended winners pass, as two named lines', async () => {
    const checks = await amendmentChecksOf(amended(fixture.valid.amendments));
    assert.deepEqual(
      checks.map((c) => [c.id, c.ok]),
      [
        ['amendments', true],
        ['amended-winners', true],
      ],
    );
    assert.match(checks[0].detail, /^2 amendments in sequence, each chained .* the next unused reserve$/);
  });

  test('a certificate without amendments gets no amendment line', async () => {
    assert.deepEqual(await amendmentChecksOf({ ...fixture.certificate }), []);
  });

  for (const broken of fixture.invalid) {
    test(`${broken.name}: fails by name, with the amendment it is about`, async () => {
      const checks = await amendmentChecksOf(brokenChain(broken.amendments));
      const failed = checks.filter((c) => !c.ok);
      assert.deepEqual(
        failed.map((c) => c.id),
        broken.failures.map((f) => f.check),
      );
      for (const [i, f] of broken.failures.entries()) {
        assert.match(failed[i].label, new RegExp(`\\(amendment ${f.at}\\)$`));
      }
      assert.equal(
        checks.some((c) => c.id === 'amendments'),
        false,
      );
    });
  }

  test('amended winners that are not what the amendments give fail, naming the position', async () => {
    const [first, second, third] = fixture.valid.amended_winners;
    const swapped = [first, { ...second, index: third.index, leaf_hash: third.leaf_hash }, third];
    const checks = await amendmentChecksOf(amended(fixture.valid.amendments, swapped));
    const line = checks.find((c) => c.id === 'amended-winners');
    assert.equal(line?.ok, false);
    assert.match(line!.detail, /^position 2 is published as index \d+; the amendments give index \d+$/);
  });

  test('amended winners published without any amendment fail', async () => {
    const published = { ...fixture.certificate, amended_winners: fixture.valid.amended_winners };
    const checks = await amendmentChecksOf(published);
    assert.equal(checks.find((c) => c.id === 'amended-winners')?.ok, false);
  });
});

describe('what the amendments changed, as the receipt page and tyche verify say it', () => {
  const { certificate } = fixture;
  const { amendments } = fixture.valid;

  test('a promoted reserve is now a winner, replacing the one named; a replaced winner is told so', () => {
    const [first, last] = [amendments[0], amendments.at(-1)!];
    const listed = [...certificate.winners, ...certificate.reserves];
    const holder = listed.find((w) => w.index === last.replaced.index);
    assert.deepEqual(standingAfterAmendments(certificate, amendments, last.by.leaf_hash), {
      won: true,
      text: `You are now winner #${last.position}, replacing ${entrantName(holder)} (amendment ${last.sequence}: ${REASON_TEXT[last.reason]}).`,
    });
    const gone = standingAfterAmendments(certificate, amendments, first.replaced.leaf_hash);
    assert.equal(gone?.won, false);
    assert.match(
      gone!.text,
      new RegExp(`^You were winner #${first.position}, and were replaced by reserve 1 `),
    );
    const untouched = certificate.winners.find(
      (w) => !amendments.some((a) => a.replaced.index === w.index || a.by.index === w.index),
    )!;
    assert.equal(standingAfterAmendments(certificate, amendments, untouched.leaf_hash), null);
  });

  test('tyche verify prints the winners as amended, then the history in sequence', () => {
    const lines = amendmentSummary(amended(amendments));
    assert.equal(lines[0], 'Winners as amended:');
    assert.equal(lines.length, 1 + certificate.winners.length + 1 + amendments.length);
    for (const w of fixture.valid.amended_winners) {
      assert.ok(
        lines.includes(
          `  #${w.position} ${w.username ? `@${w.username} (${w.telegram_id})` : `id ${w.telegram_id}`}`,
        ),
      );
    }
    assert.equal(lines[certificate.winners.length + 1], `Amendments (${amendments.length}):`);
    assert.match(lines.at(-2)!, /^ {2}1\. \S+: #\d+ .* replaced by reserve 1, /);
    assert.match(lines.at(-1)!, /^ {2}2\. \S+: #\d+ .* replaced by reserve 2, /);
    assert.deepEqual(amendmentSummary({ ...certificate }), []);
  });
});
