import { type Html, html } from '../edge/html.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { termsCommitmentOf } from '../proof/terms.ts';

// Every visible string of the terms section, kept here to move into the pages' catalogue.
const T = {
  heading: 'Terms',
  intro: 'The rules of this giveaway, exactly as the organizer gave them when it was created.',
  hash: 'SHA-256 of these terms (UTF-8)',
  committed:
    'The seal commits to these terms: its terms_sha256 is the SHA-256 above, so they cannot have changed since entries closed.',
  pending:
    'When entries close, the seal will commit to the SHA-256 of these terms: from then on they cannot change.',
  beforeCommitments:
    'This giveaway was sealed before seals committed to terms: nothing outside this server fixes the terms below.',
  committedToNone: (hash: string) =>
    html`Warning: the seal says this giveaway has no terms (terms_sha256 is null), yet this server shows some, with SHA-256 <code class="mono">${hash}</code>. These are not the rules the seal committed to.`,
  mismatch: (sealed: string, shown: string) =>
    html`Warning: the seal commits to terms with SHA-256 <code class="mono">${sealed}</code>, but the terms shown here hash to <code class="mono">${shown}</code>. These are not the rules the seal committed to.`,
  missing: (sealed: string) =>
    html`Warning: the seal commits to terms with SHA-256 <code class="mono">${sealed}</code>, but this server shows none.`,
  check: 'Check a saved copy:',
  saveHint: '(the terms are the "terms" member of',
  json: 'this giveaway as JSON',
};

/** A long text scrolls inside its box; the box takes the keyboard focus so it scrolls without a mouse. */
const TEXT_STYLE =
  'white-space:pre-wrap;overflow-wrap:anywhere;max-height:32rem;overflow-y:auto;border:1px solid var(--line);border-radius:.4rem;padding:.5rem .75rem';

/** What the seal says of the terms shown, as one notice. */
function commitment(g: PublicGiveaway): Html {
  const c = termsCommitmentOf(g.seal);
  if (!g.seal) return html`<p class="muted" data-terms-commitment="pending">${T.pending}</p>`;
  if (c.kind === 'absent')
    return html`<p class="notice" data-terms-commitment="absent">${T.beforeCommitments}</p>`;
  if (c.kind === 'none')
    return html`<p class="notice" data-terms-commitment="mismatch">${T.committedToNone(g.terms_sha256 ?? '')}</p>`;
  if (c.kind === 'sha256' && c.sha256 === g.terms_sha256)
    return html`<p class="notice public" data-terms-commitment="committed">${T.committed}</p>`;
  const sealed = c.kind === 'sha256' ? c.sha256 : String(c.value);
  return html`<p class="notice" data-terms-commitment="mismatch">${T.mismatch(sealed, g.terms_sha256 ?? '')}</p>`;
}

/**
 * The giveaway's terms on /g/{public_id} (CONTRACT §14), escaped, with their SHA-256 and what the
 * seal commits to; nothing for a giveaway without terms whose seal (if any) commits to none.
 */
export function termsSection(g: PublicGiveaway): Html | string {
  const sealed = termsCommitmentOf(g.seal);
  if (g.terms === null) {
    if (sealed.kind !== 'sha256') return '';
    return html`<section aria-labelledby="terms-heading" id="terms"><h2 id="terms-heading">${T.heading}</h2>
<p class="notice" data-terms-commitment="mismatch">${T.missing(sealed.sha256)}</p></section>`;
  }
  const json = `/g/${encodeURIComponent(g.public_id)}.json`;
  return html`<section aria-labelledby="terms-heading" id="terms"><h2 id="terms-heading">${T.heading}</h2>
<p>${T.intro}</p>
<div class="terms" tabindex="0" role="region" aria-labelledby="terms-heading" style="${TEXT_STYLE}" data-terms>${g.terms}</div>
<dl><dt>${T.hash}</dt><dd><code class="mono" data-terms-sha256>${g.terms_sha256}</code></dd></dl>
${commitment(g)}
<p class="muted">${T.check} <code class="mono">npx tyche verify &lt;verify_url&gt; --terms terms.txt</code> ${T.saveHint} <a href="${json}" type="application/json">${T.json}</a>).</p>
</section>`;
}
