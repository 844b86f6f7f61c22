import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  outcomeSentence,
  parseReceiptCode,
  receiptDocument,
  ticketChecks,
} from '../../src/proof/receipt-checks.ts';
import type { Seal } from '../../src/proof/v2-types.ts';
import { type ReceiptInput, type Report, verifyReceipt } from '../../src/proof/verifier.ts';
import { sealCertificate } from '../../src/signing/certificate-crypto.ts';
import { buildV2Fixture, sha256 } from '../helpers/v2-fixtures.ts';

const f = buildV2Fixture({ count: 6, winners: 2, reserves: 1 });
const salt = '0f'.repeat(16);

describe('receipt page helpers', () => {
  test('receipt codes: bare, with #, inside a link, percent-encoded; bad ones say why', () => {
    const want = { telegramId: 123456789, salt };
    assert.deepEqual(parseReceiptCode(`123456789.${salt}`), want);
    assert.deepEqual(parseReceiptCode(`#123456789.${salt.toUpperCase()}`), want);
    assert.deepEqual(parseReceiptCode(` https://tyche.example/g/Abc/receipt#123456789.${salt}\n`), want);
    assert.deepEqual(parseReceiptCode(`#123456789%2E${salt}`), want);
    assert.equal(parseReceiptCode('#'), 'no receipt code');
    assert.match(String(parseReceiptCode(`0.${salt}`)), /Telegram id, a dot/);
    assert.match(String(parseReceiptCode(`12.${salt.slice(2)}`)), /32 hexadecimal/);
    assert.match(String(parseReceiptCode(`9999999999999999.${salt}`)), /too large/);
    assert.match(String(parseReceiptCode('#%E0%A4%A')), /not readable/);
  });

  test('a ticket passes its three checks; each tampering fails a named one', () => {
    const e = f.entrants[0];
    const ticket = f.tickets.get(e.leaf_hash)!;
    const expected = { publicId: f.publicId, leafHash: e.leaf_hash };
    const results = ticketChecks(ticket, expected, f.keys, sha256);
    assert.deepEqual(
      results.map((c) => [c.label, c.ok]),
      [
        ['Entry ticket', true],
        ['Ticket hash', true],
        ['Ticket signature', true],
      ],
    );
    assert.match(results[0].detail, /acknowledged on 2025-01-01T10:00:00.000Z/);
    const failing = (t: unknown, exp = expected) =>
      ticketChecks(t, exp, f.keys, sha256)
        .filter((c) => !c.ok)
        .map((c) => c.label);
    assert.deepEqual(failing({ ...ticket, joined_at: '2025-01-03T10:00:00.000Z' }), [
      'Ticket hash',
      'Ticket signature',
    ]);
    assert.deepEqual(failing(ticket, { ...expected, leafHash: f.entrants[1].leaf_hash }), ['Entry ticket']);
    assert.deepEqual(failing(ticket, { ...expected, publicId: 'Other1234567' }), ['Entry ticket']);
    assert.deepEqual(failing(ticket, expected).length, 0);
    assert.deepEqual(
      ticketChecks(ticket, expected, { keys: [] }, sha256)
        .filter((c) => !c.ok)
        .map((c) => c.label),
      ['Ticket signature'],
    );
    assert.deepEqual(failing('nope'), ['Entry ticket']);
  });

  test('the saved receipt is what `verifyReceipt` accepts, before and after the seal', async () => {
    const e = f.entrants[3];
    const code = { telegramId: e.telegram_id, salt: e.salt };
    const ticket = f.tickets.get(e.leaf_hash)!;
    const early = receiptDocument({
      publicId: f.publicId,
      receiptUrl: `http://x/g/${f.publicId}/receipt`,
      code,
      leafHash: e.leaf_hash,
      ticket,
    });
    assert.deepEqual(Object.keys(early), [
      'giveaway',
      'telegram_id',
      'salt',
      'leaf_hash',
      'receipt_url',
      'ticket',
    ]);
    assert.equal(early.receipt_url, `http://x/g/${f.publicId}/receipt#${e.telegram_id}.${e.salt}`);
    const sealed = receiptDocument({
      publicId: f.publicId,
      receiptUrl: 'u',
      code,
      leafHash: e.leaf_hash,
      ticket,
      proof: f.proofOf(e.leaf_hash),
      seal: f.seal,
    });
    assert.equal(sealed.seal_id, f.seal.seal_id);
    assert.equal(sealed.seal_hash, f.seal.hash);
    // Every entrant's own re-run of the draw agrees with the certificate's list.
    const drawn = [...f.certificate.winners, ...f.certificate.reserves];
    for (const entrant of f.entrants) {
      const receipt = receiptDocument({
        publicId: f.publicId,
        receiptUrl: 'u',
        code: { telegramId: entrant.telegram_id, salt: entrant.salt },
        leafHash: entrant.leaf_hash,
        ticket: f.tickets.get(entrant.leaf_hash)!,
        proof: f.proofOf(entrant.leaf_hash),
        seal: f.seal,
      });
      const report = await verifyReceipt({
        receipt: receipt as Required<typeof receipt>,
        seal: f.seal,
        keys: f.keys,
        sha256,
        certificate: f.certificate,
      });
      assert.equal(report.valid, true, JSON.stringify(report.checks.filter((c) => !c.ok)));
      const listed = drawn.find((w) => w.leaf_hash === entrant.leaf_hash);
      assert.equal(report.outcome?.position, listed?.position);
      assert.equal(report.outcome?.won, listed !== undefined && listed.position <= 2);
    }
  });

  test('a seal re-made under the same id (another sealed_at, signed again) fails a receipt that names its hash', async () => {
    const e = f.entrants[1];
    const { hash: _h, signature: _s, ...body } = f.seal;
    const earlier = new Date(Date.parse(f.seal.sealed_at) - 1000).toISOString();
    const remade = sealCertificate({ ...body, sealed_at: earlier }, f.key) as Seal;
    assert.notEqual(remade.hash, f.seal.hash);
    const receipt = {
      telegram_id: e.telegram_id,
      salt: e.salt,
      leaf_hash: e.leaf_hash,
      ...f.proofOf(e.leaf_hash)!,
      seal_id: f.seal.seal_id,
      seal_hash: f.seal.hash,
    };
    const check = (r: ReceiptInput, seal: Seal) => verifyReceipt({ receipt: r, seal, keys: f.keys, sha256 });
    const sealLine = (report: Report) => report.checks.find((c) => c.id === 'receipt-seal')!;

    const fresh = await check(receipt, f.seal);
    assert.equal(fresh.valid, true, JSON.stringify(fresh.checks.filter((c) => !c.ok)));
    assert.equal(
      sealLine(fresh).detail,
      `seal ${f.seal.seal_id}, hash ${f.seal.hash} as the receipt names it: 6 entrants, root ${f.seal.entrants.root}`,
    );

    // The re-made seal passes its own checks (hash, signature, rounds): only seal_hash tells.
    const remadeReport = await check(receipt, remade);
    assert.equal(remadeReport.valid, false);
    assert.deepEqual(
      remadeReport.checks.filter((c) => !c.ok).map((c) => [c.label, c.detail]),
      [
        [
          'Receipt and seal',
          `the seal is not the one this receipt was issued under: hash ${remade.hash} ≠ ${f.seal.hash} (the receipt's seal_hash)`,
        ],
      ],
    );

    // A receipt saved before seal_hash existed is checked as before, and says it matched by id only.
    const { seal_hash: _, ...old } = receipt;
    for (const seal of [f.seal, remade]) {
      const report = await check(old, seal);
      assert.equal(report.valid, true, JSON.stringify(report.checks.filter((c) => !c.ok)));
      assert.equal(
        sealLine(report).detail,
        `seal ${f.seal.seal_id}, matched by id only (the receipt has no seal_hash: a re-made seal with this id would pass): 6 entrants, root ${f.seal.entrants.root}`,
      );
    }
    const { seal_id: _i, ...anonymous } = old;
    assert.match(sealLine(await check(anonymous, f.seal)).detail, /, matched by count and root only \(/);

    const malformed = await check({ ...receipt, seal_hash: f.seal.hash.toUpperCase() }, f.seal);
    assert.deepEqual(
      malformed.checks.filter((c) => !c.ok).map((c) => c.detail),
      ['receipt seal_hash is not 64 lower-case hex'],
    );
  });

  test('outcome sentences', () => {
    assert.deepEqual(outcomeSentence({ won: true, position: 2, reserve: false }, 2), {
      text: 'You won: winner #2.',
      won: true,
    });
    assert.equal(
      outcomeSentence({ won: false, position: 4, reserve: true }, 2).text,
      'You are reserve #2 (position 4): next in line, in order, if a winner is replaced.',
    );
    assert.deepEqual(outcomeSentence({ won: false }, 2), {
      text: 'You were not drawn this time.',
      won: false,
    });
  });
});
