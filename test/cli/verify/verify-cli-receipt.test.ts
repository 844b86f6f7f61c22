import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Receipt, Seal } from '../../../src/proof/v2-types.ts';
import { remadeSeal } from '../../helpers/remade-seal.ts';
import { type DrawnServer, sameVerdict, startDrawnServer } from '../../helpers/v2-server.ts';
import { front } from './forged-draw.ts';

const flip = (hex: string) => hex.replace(/^./, (d) => (d === '0' ? '1' : '0'));
/** The receipt link an entrant is given: the receipt page with the receipt code after the `#`. */
const linkOf = (r: Receipt) => {
  assert.ok(r.receipt_url.endsWith(`#${r.telegram_id}.${r.salt}`), r.receipt_url);
  return r.receipt_url;
};
const pageOf = (r: Receipt) => r.receipt_url.split('#')[0];

describe('tyche verify --receipt, and tyche-verify.mjs --receipt', () => {
  let s: DrawnServer;
  let chain: string[];
  const saved = (name: string, receipt: unknown) => {
    writeFileSync(s.file(name), JSON.stringify(receipt));
    return s.file(name);
  };
  const receiptOf = (telegramId: number) => s.drawn.receipts.find((r) => r.telegram_id === telegramId)!;
  before(async () => {
    s = await startDrawnServer();
    chain = ['--drand-chain', s.file('chain.json')];
  });
  after(() => s?.stop());

  test('a receipt link: in the sealed list, and won, reserve or not drawn as the certificate says', async () => {
    const { certificate } = s.drawn;
    const drawn = new Set([...certificate.winners, ...certificate.reserves].map((w) => w.telegram_id));
    const loser = s.drawn.receipts.find((r) => !drawn.has(r.telegram_id))!;
    const cases: [Receipt, RegExp][] = [
      [receiptOf(certificate.winners[0].telegram_id), /^Result: this entrant won: winner #1$/m],
      [receiptOf(certificate.winners[1].telegram_id), /^Result: this entrant won: winner #2$/m],
      [
        receiptOf(certificate.reserves[1].telegram_id),
        /^Result: this entrant is reserve #2 \(position 4\)$/m,
      ],
      [loser, /^Result: this entrant was not drawn$/m],
    ];
    const runs = await Promise.all(cases.map(([r]) => s.both(['--receipt', linkOf(r), ...chain])));
    for (const [i, [receipt, result]] of cases.entries()) {
      const out = sameVerdict(runs[i], 0, linkOf(receipt));
      assert.match(out, result);
      assert.match(
        out,
        new RegExp(
          `^In the sealed list: yes, index ${receipt.index} of 12 \\(seal ${receipt.seal_id}\\)$`,
          'm',
        ),
      );
      for (const label of [
        'Entry ticket',
        'Ticket signature',
        'Seal signature',
        'Receipt inclusion proof',
        'Certificate',
        'Outcome',
        'Log checkpoint',
        'Log inclusion \\(seal\\)',
        'Signing key in the log \\(seal\\)',
        'Log inclusion \\(certificate\\)',
      ]) {
        assert.match(out, new RegExp(`^✓ ${label}: `, 'm'), label);
      }
      assert.match(out, /^! Seal time: warning: seal time attested by the operator only$/m);
      assert.match(out, /\nVALID: no check failed, 1 with a warning \(Seal time\)\.\n$/);
    }
  });

  test('the certificate withheld after the round: the outcome from the seal and the round, the server named late', async () => {
    const { certificate, publicId } = s.drawn;
    const g = await (await fetch(`${s.server.url}/g/${publicId}.json`)).json();
    // The service as it would look holding the result back: sealed, no certificate.
    const hidden = {
      ...g,
      status: 'sealed',
      certificate_id: null,
      certificate_log_index: null,
      verify_url: null,
    };
    const withheld = await front(s.server.url, (u) =>
      u.pathname === `/g/${publicId}.json` ? { json: hidden } : undefined,
    );
    try {
      const via = (r: Receipt) => r.receipt_url.replace(s.server.url, withheld.url);
      const drawn = new Set([...certificate.winners, ...certificate.reserves].map((w) => w.telegram_id));
      const cases: [Receipt, RegExp][] = [
        [receiptOf(certificate.winners[1].telegram_id), /^Result: this entrant won: winner #2$/m],
        [
          receiptOf(certificate.reserves[0].telegram_id),
          /^Result: this entrant is reserve #1 \(position 3\)$/m,
        ],
        [s.drawn.receipts.find((r) => !drawn.has(r.telegram_id))!, /^Result: this entrant was not drawn$/m],
      ];
      const { round, round_at: roundAt } = certificate.seal.beacon;
      const runs = await Promise.all(cases.map(([r]) => s.both(['--receipt', via(r), ...chain])));
      for (const [i, [receipt, result]] of cases.entries()) {
        const out = sameVerdict(runs[i], 0, via(receipt));
        assert.match(out, result);
        assert.ok(
          out.includes(
            `\nRound ${round} is public since ${roundAt}; the certificate is not published yet — the outcome above is computed from the seal and the round.\n`,
          ),
          out,
        );
        assert.match(
          out,
          new RegExp(
            `^✓ drand relay record: round ${round} as the relay serves it is signed by the chain's key`,
            'm',
          ),
        );
        assert.match(
          out,
          new RegExp(
            `^✓ Outcome: .*, computed from the seal and drand round ${round}, without a certificate$`,
            'm',
          ),
        );
        assert.doesNotMatch(out, /^. Certificate: /m);
        assert.doesNotMatch(out, /Log inclusion \(certificate\)/);
      }
      const json = JSON.parse((await s.both(['--receipt', via(cases[0][0]), ...chain, '--json'])).cli.stdout);
      assert.deepEqual(json.outcome, { won: true, position: 2, reserve: false });
      assert.equal(json.outcome_from, 'round');
      assert.equal(json.certificate_late, true);
      assert.equal(json.certificate_id, null);

      // A relay that cannot be read leaves the outcome unknown, said but not failed.
      const closed = await front(s.server.url, () => undefined);
      await closed.close();
      const dead = ['--receipt', via(cases[0][0]), ...chain, '--relay', closed.url];
      const unread = sameVerdict(await s.both(dead), 0, 'dead relay');
      assert.match(
        unread,
        new RegExp(
          `^Result: unknown; drand round ${round}, due at ${roundAt}, could not be read from a relay$`,
          'm',
        ),
      );
      assert.match(
        unread,
        new RegExp(
          `^- Outcome: not computed: drand round ${round} could not be read \\(cannot reach ${closed.url}/.*: ECONNREFUSED\\); pass --relay URL$`,
          'm',
        ),
      );
    } finally {
      await withheld.close();
    }
  });

  test('a saved receipt, from before or after the seal, and without its link', async () => {
    const winner = s.drawn.certificate.winners[0].telegram_id;
    const before = s.receiptsBeforeSeal.find((r) => r.telegram_id === winner)!;
    assert.equal(before.proof, undefined, 'the receipt from before the seal has no proof yet');
    const noLink: Partial<Receipt> = { ...receiptOf(winner) };
    delete noLink.receipt_url;
    const cases: [string[], Record<string, string>][] = [
      [['--receipt', saved('before.json', before)], {}],
      [['--receipt', saved('after.json', receiptOf(winner))], {}],
      [['--receipt', saved('no-link.json', noLink)], { PUBLIC_BASE_URL: s.server.url }],
    ];
    const runs = await Promise.all(cases.map(([args, env]) => s.both([...args, ...chain], env)));
    for (const [i, [args]] of cases.entries()) {
      const out = sameVerdict(runs[i], 0, args.join(' '));
      assert.match(out, /^Result: this entrant won: winner #1$/m);
    }
  });

  test('a saved receipt names its seal by hash; one saved before seal_hash is matched by id only', async () => {
    const r = receiptOf(s.drawn.certificate.winners[0].telegram_id);
    assert.equal(r.seal_hash, s.drawn.certificate.seal.hash);
    const { seal_hash: _, ...old } = r;
    const [current, older] = await Promise.all([
      s.both(['--receipt', saved('with-hash.json', r), ...chain]),
      s.both(['--receipt', saved('without-hash.json', old), ...chain]),
    ]);
    assert.match(
      sameVerdict(current, 0, 'with seal_hash'),
      new RegExp(
        `^✓ Receipt and seal: seal ${r.seal_id}, hash ${r.seal_hash} as the receipt names it: 12 entrants, root `,
        'm',
      ),
    );
    const out = sameVerdict(older, 0, 'without seal_hash');
    assert.match(
      out,
      new RegExp(
        `^✓ Receipt and seal: seal ${r.seal_id}, matched by id only \\(the receipt has no seal_hash: a re-made seal with this id would pass\\): 12 entrants, root `,
        'm',
      ),
    );
    assert.match(out, /\nVALID: no check failed, 1 with a warning \(Seal time\)\.\n$/);
  });

  test('a seal re-made under the same id, with another sealed_at, fails a saved receipt by its seal_hash', async () => {
    const receipt = s.waiting.receipts[1];
    const seal = (await (await fetch(`${s.server.url}/g/${s.waiting.publicId}.json`)).json()).seal as Seal;
    assert.equal(receipt.seal_hash, seal.hash);
    const remade = remadeSeal(join(s.dir, 'data'), seal);
    assert.equal(remade.seal_id, receipt.seal_id);
    assert.notEqual(remade.hash, seal.hash);
    // The public JSON shows the re-made seal instead of the one sealed.
    const g = await (await fetch(`${s.server.url}/g/${s.waiting.publicId}.json`)).json();
    const shown = await front(s.server.url, (u) =>
      u.pathname === `/g/${s.waiting.publicId}.json` ? { json: { ...g, seal: remade } } : undefined,
    );
    try {
      const at = (r: Partial<Receipt>) => ({
        ...r,
        receipt_url: r.receipt_url!.replace(s.server.url, shown.url),
      });
      const { seal_hash: _, ...old } = receipt;
      const [current, older] = await Promise.all([
        s.both(['--receipt', saved('remade.json', at(receipt)), ...chain]),
        s.both(['--receipt', saved('remade-old.json', at(old)), ...chain]),
      ]);
      const out = sameVerdict(current, 1, 'the re-made seal');
      assert.match(
        out,
        new RegExp(
          `^✗ Receipt and seal: the seal is not the one this receipt was issued under: hash ${remade.hash} ≠ ${seal.hash} \\(the receipt's seal_hash\\)$`,
          'm',
        ),
      );
      // Its own hash and signature are the service's: only the receipt's seal_hash (and the log) tell.
      assert.match(out, /^✓ Seal hash: /m);
      assert.match(out, /^✓ Seal signature: /m);
      assert.match(out, /\nINVALID: \d+ of \d+ checks failed\.\n$/);
      // A receipt saved before seal_hash cannot tell the re-made seal by its id.
      assert.match(
        sameVerdict(older, 1, 'an old receipt, the re-made seal'),
        new RegExp(`^✓ Receipt and seal: seal ${receipt.seal_id}, matched by id only `, 'm'),
      );
    } finally {
      await shown.close();
    }
  });

  test('a changed receipt, or someone who is not an entrant, is named', async () => {
    const r = receiptOf(s.drawn.certificate.winners[0].telegram_id);
    const cases: [string, unknown, RegExp][] = [
      ['proof', { ...r, proof: [flip(r.proof![0]), ...r.proof!.slice(1)] }, /^✗ Receipt inclusion proof: /m],
      ['index', { ...r, index: (r.index! + 1) % 12 }, /^✗ Receipt inclusion proof: /m],
      ['seal', { ...r, seal_id: 's_someothersealx' }, /^✗ Receipt and seal: /m],
      [
        'ticket',
        { ...r, ticket: { ...r.ticket, joined_at: '2020-01-01T00:00:00.000Z' } },
        /^✗ Ticket hash: /m,
      ],
    ];
    const runs = await Promise.all(
      cases.map(([name, receipt]) => s.both(['--receipt', saved(`bad-${name}.json`, receipt), ...chain])),
    );
    for (const [i, [name, , failure]] of cases.entries()) {
      const out = sameVerdict(runs[i], 1, name);
      assert.match(out, failure, name);
      assert.match(out, /\nINVALID: \d+ of \d+ checks failed\.\n$/, name);
    }
    const stranger = `${pageOf(r)}#${r.telegram_id}.${'5a'.repeat(16)}`;
    const out = sameVerdict(await s.both(['--receipt', stranger, ...chain]), 1, 'stranger');
    assert.match(out, /^✗ Entry ticket: the service has no entry with leaf hash [0-9a-f]{64}/m);
    assert.match(out, /^✗ In the sealed list: leaf [0-9a-f]{64} is not among the 12 sealed entrants$/m);
    assert.match(out, /^In the sealed list: no$/m);
  });

  test('before the seal, and sealed while the round is still to come', async () => {
    const open = sameVerdict(await s.both(['--receipt', linkOf(s.open.receipts[0])]), 0, 'open');
    assert.match(open, /^✓ Entry ticket: /m);
    assert.match(open, /^- Sealed list: not sealed yet \(status active\); check again after the seal$/m);
    const waiting = s.waiting.receipts[2];
    const out = sameVerdict(await s.both(['--receipt', linkOf(waiting), ...chain]), 0, 'waiting');
    assert.match(out, /^✓ Receipt inclusion proof: this entrant is index \d of the 5 sealed entrants$/m);
    // Before the draw the seal alone is looked for in the log.
    assert.match(out, /^✓ Log inclusion \(seal\): the seal is entry \d+ of the log of size \d+$/m);
    assert.doesNotMatch(out, /Log inclusion \(certificate\)/);
    assert.match(
      out,
      new RegExp(`^Result: not drawn yet; the draw uses drand round ${s.waiting.round}, due at `, 'm'),
    );
  });

  test('--json carries the place and the outcome; a chain left out is said', async () => {
    const r = receiptOf(s.drawn.certificate.reserves[0].telegram_id);
    const { cli, mjs } = await s.both(['--receipt', linkOf(r), ...chain, '--json']);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.equal(mjs.stdout, cli.stdout);
    const report = JSON.parse(cli.stdout);
    assert.equal(report.valid, true);
    assert.equal(report.in_sealed_list, true);
    assert.equal(report.index, r.index);
    assert.deepEqual(report.outcome, { won: false, position: 3, reserve: true });
    assert.equal(report.certificate_id, s.drawn.certificate.certificate_id);
    const out = sameVerdict(await s.both(['--receipt', linkOf(r)]), 1, 'no chain');
    assert.match(out, /^✗ drand chain: /m);
    assert.match(out, /^- drand chain key: only quicknet's is built in/m);
  });

  test('usage and unreadable receipts', async () => {
    const r = s.drawn.receipts[0];
    writeFileSync(s.file('garbage.json'), '{"hello":');
    const cases: [string[], number, RegExp][] = [
      [['--receipt', pageOf(r)], 2, /no receipt code after the #/],
      [['--receipt', `${s.server.url}/verify/c_x#1.${'ab'.repeat(16)}`], 2, /is not a receipt URL/],
      [['--receipt', linkOf(r), s.drawn.verifyUrl], 2, /--receipt takes the receipt, and nothing else/],
      [['--receipt', linkOf(r), '--entrants', 'x.json'], 2, /--entrants checks a certificate, not a receipt/],
      [['--receipt', s.file('missing.json')], 3, /cannot read the receipt file .*missing\.json/],
      [['--receipt', s.file('garbage.json')], 3, /the receipt at .*garbage\.json is not JSON/],
      [
        ['--receipt', saved('not-receipt.json', { hello: 1 })],
        3,
        /not-receipt\.json is not a receipt: it names no giveaway/,
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => s.both(args)));
    for (const [i, [args, code, message]] of cases.entries()) {
      const out = sameVerdict(runs[i], code, args.join(' '));
      assert.match(out, message, args.join(' '));
    }
  });
});
