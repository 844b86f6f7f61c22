import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from '../../src/i18n/catalogue.ts';
import { CHECK_DETAILS, fillSlots } from '../../src/proof/check-phrases.ts';
import { checkLogEvidence, type KeySource } from '../../src/proof/log-evidence.ts';
import { ticketChecks } from '../../src/proof/receipt-checks.ts';
import type { Check } from '../../src/proof/report.ts';
import { verifyCertificate, verifyReceipt } from '../../src/proof/verifier.ts';
import { shownCheck, useCheckWords } from '../../src/web/check-list.ts';
import { CHECK_NOTES } from '../../src/web/check-notes.ts';
import { checkWords } from '../../src/web/check-text.ts';
import { CHECK_DETAIL_CODES, CHECK_LABEL_CODES } from '../helpers/check-codes.ts';
import { buildV2Fixture, sha256 } from '../helpers/v2-fixtures.ts';
import { scene } from '../proof/log-world.ts';

const slots = (text: string) => [...text.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]).sort();

test('every code proof/ can emit, label or detail, has its words in every language, with the same slots', () => {
  for (const language of LANGUAGES) {
    const words = checkWords(language);
    for (const code of CHECK_LABEL_CODES) assert.ok(words[`chk-label-${code}`], `${language}: label ${code}`);
    for (const code of CHECK_DETAIL_CODES) {
      const said = words[`chk-${code}`];
      assert.ok(said, `${language}: detail ${code}`);
      assert.deepEqual(slots(said), slots(CHECK_DETAILS[code as keyof typeof CHECK_DETAILS]), code);
    }
    for (const { key } of Object.values(CHECK_NOTES)) assert.ok(words[key], `${language}: ${key}`);
  }
  // Russian says each in its own words: none is left as the English.
  const [en, ru] = [checkWords('en'), checkWords('ru')];
  const same = Object.keys(en).filter((key) => en[key] === ru[key] && /[a-z]{4}/.test(en[key]));
  assert.deepEqual(same, ['chk-seed-v1-ok'], 'only a formula reads the same');
});

test('the checks of a receipt and a certificate carry codes the catalogue has; their English is unchanged', async () => {
  const f = buildV2Fixture({ count: 6, winners: 2, reserves: 1 });
  const e = f.entrants[0];
  const proof = f.proofOf(e.leaf_hash) as { index: number; count: number; root: string; proof: string[] };
  const receipt = await verifyReceipt({
    receipt: {
      telegram_id: e.telegram_id,
      salt: e.salt,
      ...proof,
      seal_id: f.seal.seal_id,
      seal_hash: f.seal.hash,
    },
    seal: f.seal,
    keys: f.keys,
    sha256,
    certificate: f.certificate,
  });
  const certificate = await verifyCertificate({ certificate: f.certificate, keys: f.keys, sha256 });
  const ticket = ticketChecks(
    f.tickets.get(e.leaf_hash),
    { publicId: f.publicId, leafHash: e.leaf_hash },
    f.keys,
    sha256,
  );
  const checks: Check[] = [...receipt.checks, ...certificate.checks, ...ticket];
  assert.ok(checks.length > 15);
  const ru = checkWords('ru');
  for (const check of checks) {
    assert.ok(check.says, `${check.id} carries codes`);
    assert.ok(CHECK_LABEL_CODES.includes(check.says.label), `${check.id}: label ${check.says.label}`);
    if (check.ok) assert.ok(check.says.detail, `${check.id}: a passed check's detail is coded`);
    if (!check.says.detail) continue;
    // The template filled with the check's values is its English, word for word.
    assert.equal(
      fillSlots(CHECK_DETAILS[check.says.detail], check.says.params ?? {}),
      check.detail,
      check.id,
    );
    assert.doesNotMatch(fillSlots(ru[`chk-${check.says.detail}`], check.says.params ?? {}), /\{[a-z]+\}/i);
  }
  // The codes stay out of JSON and of deep comparisons: the CLI's --json is what it was.
  assert.ok(!JSON.stringify(checks).includes('"says"'));
  assert.ok(!Object.keys(checks[0]).includes('says'));
});

test('how the log key came to be trusted is a code of its own: English as the CLI says it, and in the page language', () => {
  const s = scene();
  const sources: [KeySource, string, string][] = [
    [{ code: 'pinned-now' }, 'pinned now, on first use', 'закреплён сейчас, при первом использовании'],
    [{ code: 'pinned-earlier' }, 'pinned earlier', 'закреплён ранее'],
    [{ code: 'given', given: '--log-key' }, 'given with --log-key', 'задан через --log-key'],
  ];
  for (const [keySource, english, russian] of sources) {
    const [check] = checkLogEvidence(s.evidence({ keySource })).checks;
    assert.equal(check.says?.detail, `log-checkpoint-${keySource.code}`);
    assert.equal(check.detail, `tyche.test/log at size ${s.w.size}, signed by the log key (${english})`);
    assert.equal(shownCheck(check).detail, check.detail);
    useCheckWords(checkWords('ru'));
    try {
      assert.equal(
        shownCheck(check).detail,
        `tyche.test/log размера ${s.w.size}, подписана ключом журнала (${russian})`,
      );
    } finally {
      useCheckWords({});
    }
  }
});
