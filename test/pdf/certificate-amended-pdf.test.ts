import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { renderCertificatePdf } from '../../src/pdf/certificate-pdf.ts';
import { type Amendment, amendedWinners } from '../../src/proof/amendments.ts';
import type { CertificateV2, EntrantWinner } from '../../src/proof/v2-types.ts';
import { readPdf } from './pdf-glyphs.ts';
import { pdfText } from './pdf-text.ts';

const PAGE_URL = 'https://tyche.example/verify/c_b1xZ0YouHddoaADs';
const SPEC_URL = 'https://tyche.example/docs/draw-algorithm';
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/amendment-vectors.json', import.meta.url), 'utf8'),
) as { certificate: CertificateV2; valid: { amendments: Amendment[]; amended_winners: EntrantWinner[] } };
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** CONTRACT §14: the PDF of an amended draw shows the winners as amended first, and the history. */
describe('the PDF certificate of an amended draw', () => {
  test('one amendment: winners as amended before the draw, the history after it, on one page', async () => {
    const amendments = fixture.valid.amendments.slice(0, 1);
    const amended_winners = amendedWinners(fixture.certificate, amendments);
    const published = { ...fixture.certificate, amendments, amended_winners };
    const pdf = await readPdf(await renderCertificatePdf(published, PAGE_URL, SPEC_URL));
    assert.equal(pdf.pages, 1);
    const text = flat(pdf.text);
    const top = text.indexOf('Winners as amended, after 1 replacement by the reserves (history below)');
    const drawn = text.indexOf('Winners as drawn, in draw order');
    const history = text.indexOf('History of replacements');
    assert.ok(top >= 0 && drawn > top && history > drawn, text);
    for (const w of amended_winners) assert.ok(text.slice(top, drawn).includes(w.leaf_hash), w.leaf_hash);
    assert.match(
      text.slice(history),
      new RegExp(
        `1\\. \\S+ \\S+ UTC: winner #${amendments[0].position} .* was replaced by reserve 1, .*\\. Reason: left the channel\\.`,
      ),
    );
  });

  test('a history with no room left on the first page goes on a second, whole', async () => {
    const { amendments, amended_winners } = fixture.valid;
    const published = { ...fixture.certificate, amendments, amended_winners };
    const { pages, text } = await pdfText(await renderCertificatePdf(published, PAGE_URL, SPEC_URL));
    assert.equal(pages, 2);
    assert.ok(flat(text[0]).includes('Winners as amended, after 2 replacements'));
    const second = flat(text[1]);
    assert.ok(second.startsWith('History of replacements'), second);
    assert.match(second, /1\. .* replaced by reserve 1, .*\. Reason: left the channel\./);
    assert.match(
      second,
      /2\. .* replaced by reserve 2, .*\. Reason: did not claim the prize in time\. Note from the organiser: “Not claimed within P3D/,
    );
  });

  test('a history longer than a page says how many more and where, never running off it', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...fixture.valid.amendments[i % 2],
      sequence: i + 1,
      note: `Note ${i + 1}: ${'a long public note '.repeat(10)}`,
    }));
    const published = { ...fixture.certificate, amendments: many };
    const { pages, text } = await pdfText(await renderCertificatePdf(published, PAGE_URL, SPEC_URL));
    assert.equal(pages, 2);
    assert.match(flat(text[1]), new RegExp(`… and \\d+ more amendments: see ${PAGE_URL}`));
  });

  test('a certificate without amendments has no amended winners or history', async () => {
    const pdf = await readPdf(await renderCertificatePdf(fixture.certificate, PAGE_URL, SPEC_URL));
    assert.equal(pdf.pages, 1);
    assert.ok(!pdf.text.includes('Winners as amended'));
    assert.ok(!pdf.text.includes('History of replacements'));
    assert.ok(flat(pdf.text).includes('Winners, in draw order'));
  });
});
