import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderCertificatePdf } from '../../src/pdf/certificate-pdf.ts';
import { formatUtc } from '../../src/pdf/certificate-text.ts';
import { OPERATOR_TRUST_LABEL } from '../../src/proof/report.ts';
import type { CertificateV2 } from '../../src/proof/v2-types.ts';
import { sampleCertificate } from '../helpers/certificates.ts';
import { manyEntrants, QUICKNET_EXAMPLE, sampleCertificateV2 } from '../helpers/certificates-v2.ts';
import { type PdfReading, readPdf } from './pdf-glyphs.ts';

const PAGE_URL = 'https://tyche.example/verify/c_b1xZ0YouHddoaADs';
const SPEC_URL = 'https://tyche.example/docs/draw-algorithm';

const TITLES: Record<string, string> = {
  chinese: '抽奖活动：赢取新款耳机',
  japanese: '日本語のプレゼント企画',
  korean: '구독자 추첨 이벤트',
  emoji: '🎁 Giveaway 🎉🍀 👨‍👩‍👧 ❤️',
  arabic: 'مسابقة كبيرة للمتابعين',
  hebrew: 'הגרלה גדולה לעוקבים',
  cyrillic: 'Розыгрыш — 5 × наушники',
  greek: 'Κλήρωση δώρων',
};

async function renderV2(cert: CertificateV2): Promise<{ bytes: Buffer; pdf: PdfReading }> {
  const bytes = await renderCertificatePdf(cert, PAGE_URL, SPEC_URL);
  return { bytes, pdf: await readPdf(bytes) };
}

/** Every glyph with text is a real glyph of an embedded font, with ink: no empty boxes. */
function assertNoBoxes(pdf: PdfReading, label: string): void {
  const boxes = pdf.glyphs.filter((g) => !/^\s*$/u.test(g.unicode) && !(g.code !== 0 && g.inFont && g.inked));
  assert.deepEqual(
    boxes.map((g) => `${g.unicode} in ${g.font}`),
    [],
    `${label}: glyphs drawn as empty boxes`,
  );
}

describe('the PDF certificate in any script', () => {
  for (const [script, title] of Object.entries(TITLES)) {
    test(`a ${script} title is drawn with glyphs and copies out exactly`, async () => {
      const { pdf } = await renderV2(sampleCertificateV2({ title }));
      assert.equal(pdf.pages, 1);
      assert.ok(pdf.text.includes(title), `${script}: the extracted text lacks ${title}:\n${pdf.text}`);
      assertNoBoxes(pdf, script);
      const visible = [...title].filter((c) => /[\p{L}\p{N}\p{So}\p{P}]/u.test(c));
      for (const c of visible) {
        assert.ok(
          pdf.glyphs.some((g) => g.unicode.includes(c) && g.inked),
          `${script}: no inked glyph carries ${c}`,
        );
      }
    });
  }

  test('only the font slices the text needs are embedded, so the file stays small', async () => {
    const latin = await renderV2(sampleCertificateV2({ title: 'Summer giveaway' }));
    assert.ok(
      latin.pdf.fonts.every((name) => /NotoSans(Mono)?-Regular|NotoSans-Bold/.test(name)),
      String(latin.pdf.fonts),
    );
    assert.ok(latin.bytes.length < 60_000, `${latin.bytes.length} bytes`);
    const mixed = await renderV2(sampleCertificateV2({ title: Object.values(TITLES).join(' ') }));
    assertNoBoxes(mixed.pdf, 'every script at once');
    assert.ok(mixed.pdf.fonts.some((name) => name.includes('NotoSansSC')));
    assert.ok(mixed.pdf.fonts.some((name) => name.includes('NotoEmoji')));
    assert.ok(mixed.pdf.fonts.some((name) => name.includes('NotoSansArabic')));
    assert.ok(mixed.bytes.length < 200_000, `${mixed.bytes.length} bytes`);
  });

  test('usernames in other scripts render in the winners table too', async () => {
    const names = ['Алёна', '小明', 'さくら', '민준', 'محمد', '🦊fox'];
    const cert = sampleCertificateV2({
      entrants: manyEntrants(names.length, (i) => names[i]),
      winnersCount: names.length,
      reserveCount: 0,
    });
    const { pdf } = await renderV2(cert);
    for (const name of names) assert.ok(pdf.text.includes(`@${name}`), `lacks @${name}`);
    assertNoBoxes(pdf, 'usernames');
  });

  test('a long title keeps three lines and a long name one cell, each ending in an ellipsis', async () => {
    const title = `${'抽奖活动 Розыгрыш '.repeat(12)}lastword`;
    const name = 'ع'.repeat(200);
    const cert = sampleCertificateV2({ title, entrants: manyEntrants(3, () => name), winnersCount: 3 });
    const { pdf } = await renderV2(cert);
    assert.equal(pdf.pages, 1);
    const lines = pdf.text.split('\n');
    const first = lines.findIndex((line) => line.startsWith('抽奖活动'));
    assert.ok(first > 0, pdf.text);
    assert.ok(lines[first + 2].endsWith('…'), lines.slice(first, first + 3).join(' / '));
    assert.ok(!pdf.text.includes('lastword'));
    assert.equal(lines.filter((line) => line.includes('@') && line.includes('…')).length, 3);
    assertNoBoxes(pdf, 'long texts');
  });

  test('a character no packaged font has still renders the rest of the page', async () => {
    const { pdf } = await renderV2(sampleCertificateV2({ title: 'Ancient 𓀀 giveaway' }));
    assert.equal(pdf.pages, 1);
    assert.ok(pdf.text.includes('Ancient'));
    assert.ok(pdf.text.includes('giveaway'));
  });
});

describe('the content of the PDF certificate', () => {
  test('a v2 certificate shows its seal, its drand round, the seed and every winner and reserve', async () => {
    const cert = sampleCertificateV2();
    assert.equal(cert.hash, QUICKNET_EXAMPLE.certificate.hash, 'the sample is drawn as the reference draws');
    const { pdf } = await renderV2(cert);
    assert.equal(pdf.pages, 1);
    const text = pdf.text.replace(/\n/g, ' ');
    const { seal, beacon } = cert;
    for (const value of [
      cert.certificate_id,
      seal.giveaway.title,
      seal.giveaway.public_id,
      seal.seal_id,
      `${seal.entrants.count}, sealed ${formatUtc(seal.sealed_at)}`,
      seal.entrants.root,
      seal.hash,
      `Ed25519 by key ${seal.signature.kid}`,
      beacon.chain_hash,
      `${beacon.round}, due ${formatUtc(seal.beacon.round_at)}`,
      beacon.randomness,
      cert.seed,
      cert.hash,
      'tyche-draw-v2',
      `node tyche-verify.mjs ${PAGE_URL}`,
      'https://tyche.example/tyche-verify.mjs',
    ]) {
      assert.ok(text.includes(value), `the PDF lacks ${value}`);
    }
    // Long values wrap; they are whole once the line breaks are gone.
    assert.ok(pdf.text.replace(/\s/g, '').includes(beacon.signature), 'the BLS signature');
    assert.ok(pdf.text.replace(/\s/g, '').includes(cert.signature.value), 'the certificate signature');
    assert.ok(cert.reserves.length > 0);
    for (const w of [...cert.winners, ...cert.reserves]) {
      assert.ok(text.includes(w.leaf_hash), `leaf hash of position ${w.position}`);
      assert.ok(text.includes(String(w.telegram_id)), `telegram id of position ${w.position}`);
      assert.ok(text.includes(`${w.proof.length} hashes`), `proof length of position ${w.position}`);
      if (w.username) assert.ok(text.includes(`@${w.username}`), `username of position ${w.position}`);
    }
    assert.ok(!text.includes(OPERATOR_TRUST_LABEL));
    assertNoBoxes(pdf, 'v2 certificate');
  });

  test('a v1 certificate says that the operator’s randomness must be trusted', async () => {
    const { certificate } = sampleCertificate({ title: 'Розыгрыш 🎁 抽奖' });
    const pdf = await readPdf(await renderCertificatePdf(certificate, PAGE_URL, SPEC_URL));
    assert.equal(pdf.pages, 1);
    assert.ok(pdf.text.includes(`tyche-draw-v1: ${OPERATOR_TRUST_LABEL}.`), pdf.text);
    assert.ok(pdf.text.includes('Розыгрыш 🎁 抽奖'));
    for (const value of [
      certificate.participants_hash,
      certificate.seed,
      certificate.hash,
      certificate.randomness.bytes,
    ]) {
      assert.ok(pdf.text.includes(value), `the PDF lacks ${value}`);
    }
    assertNoBoxes(pdf, 'v1 certificate');
  });

  test('hundreds of winners and reserves stay on one page and say where the rest are', async () => {
    const cert = sampleCertificateV2({
      entrants: manyEntrants(400, (i) => `entrant_${i}`),
      winnersCount: 150,
      reserveCount: 100,
      certificateId: 'c_manyWinners0001',
    });
    const { pdf } = await renderV2(cert);
    assert.equal(pdf.pages, 1);
    assert.match(
      pdf.text,
      /… and \d+ more winners: see https:\/\/tyche\.example\/verify\/c_b1xZ0YouHddoaADs/,
    );
    // The first reserves are listed (winners come first, then reserves), the rest pointed to.
    assert.match(pdf.text, /… and \d+ more reserves: see/);
    assert.ok(pdf.text.includes(`@${cert.winners[0].username}`));
  });
});
