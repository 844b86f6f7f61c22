import { Html, html, layout } from '../edge/html.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import { PAGE_SCRIPT_URL } from './browser-modules.ts';
import { checkTextBlock } from './check-text.ts';
import { languageSwitch, localeFor, type PageLocale, pageHref } from './page-language.ts';
import { PAGE_STYLE } from './page-parts.ts';
import { RECEIPT_TEXT_KEYS } from './receipt-text.ts';
import { timestampLines } from './timestamp-lines.ts';
import { evidenceSettings } from './verify-page-evidence.ts';
import { baseOf, verifierCommand } from './verify-page-top.ts';

const RECEIPT_STYLE = `
#receipt-code-form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:1rem 0}
#receipt-code-form label{flex-basis:100%;font-weight:600}
#receipt-code{font:inherit;font-family:ui-monospace,monospace;flex:1 1 18rem;min-width:0;min-height:44px;padding:.4rem .6rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}
.summary{border-left:4px solid var(--line);padding:.1rem 1rem;margin:1rem 0;border-radius:0 .4rem .4rem 0}
.summary.ok{border-left-color:var(--ok);background:var(--ok-bg)}.summary.bad{border-left-color:var(--bad);background:var(--bad-bg)}
.summary.neutral{border-left-color:var(--muted)}
.outcome{font-size:1.4rem;font-weight:700;margin:.6rem 0}.outcome.won{color:var(--ok)}
.place{font-size:1.15rem;margin:.6rem 0}#receipt-save{margin:0 0 1.25rem}
.late{font-weight:600;border-left:4px solid var(--bad);padding-left:.6rem}
.tree{list-style:none;padding:0;margin:.5rem 0;display:grid;gap:.3rem}
.tree li{display:grid;grid-template-columns:1fr 1fr;gap:.4rem;position:relative}
.tree .node{border:1px solid var(--line);border-radius:.4rem;padding:.2rem .45rem;font-size:.85rem;min-width:0}
.tree .node.path{border:2px solid var(--accent)}.tree .node.root{grid-column:1/3;border-color:var(--ok);border-width:2px}
.tree .node .role{display:block;color:var(--muted);font-size:.8rem}
.tree details{border:0;padding:0}.tree summary{font-family:ui-monospace,monospace;font-weight:400}
.tree code{display:block;overflow-wrap:anywhere;font-size:.8rem}`;

/** The receipt script's words in the page's language (receipt-text.ts lists them, with `{name}` slots). */
function clientText({ t }: PageLocale): Html {
  const text = Object.fromEntries(
    Object.entries(RECEIPT_TEXT_KEYS).map(([name, { key, slots }]) => [
      name,
      t(key, Object.fromEntries(slots.map((slot) => [slot, `{${slot}}`]))),
    ]),
  );
  return html`<script type="application/json" id="page-text">${new Html(JSON.stringify(text).replaceAll('<', '\\u003c'))}</script>`;
}

/**
 * The entrant's own check. The server renders only the frame: the receipt code lives in the
 * address fragment, which browsers never send, and the script reads it there.
 */
export function renderReceiptPage(
  g: PublicGiveaway,
  scriptUrl: string,
  locale: PageLocale = localeFor('en'),
): string {
  const l = locale;
  const { t } = l;
  const page = `/g/${g.public_id}`;
  const command = verifierCommand(baseOf(g.receipt_url), '--receipt receipt.json');
  const body = html`${languageSwitch(l, `${page}/receipt`)}<main>
<header><p class="eyebrow">${t('r-eyebrow')}</p><h1>${g.title}</h1>
<p>${t('v-giveaway')} <a href="${pageHref(l, page)}"><code>${g.public_id}</code></a>${g.draw_mode === 'instant' ? html` · ${t('r-instant')}` : ''}</p></header>

<noscript><p class="notice">${t('r-noscript')}</p><pre tabindex="0"><code class="mono">${command}</code></pre></noscript>

<section id="receipt" aria-labelledby="receipt-heading" data-public-id="${g.public_id}" data-giveaway-url="${page}.json" data-keys-url="${KEYS_PATH}" data-base="${page}">
<h2 id="receipt-heading">${t('r-heading')}</h2>
<form id="receipt-code-form" hidden>
<label for="receipt-code">${t('r-code-label')} <code>123456789.0f3a…</code></label>
<input id="receipt-code" name="code" autocomplete="off" spellcheck="false" inputmode="text">
<button type="submit">${t('r-code-button')}</button>
</form>
<div id="receipt-result" aria-live="polite">
<div id="receipt-summary" class="summary">
<p id="receipt-outcome" class="outcome" hidden></p>
<p id="receipt-late" class="late" hidden></p>
<p id="receipt-place" class="place" hidden></p>
<p id="receipt-status"></p>
</div>
<button type="button" id="receipt-save" hidden>${t('r-save')}</button>
<section id="receipt-tree" aria-labelledby="tree-heading" hidden><h3 id="tree-heading">${t('r-tree-heading')}</h3>
<p class="muted">${t('r-tree-explain')}</p><ol class="tree" id="receipt-tree-levels"></ol></section>
<h3 id="receipt-facts-heading" hidden>${t('r-facts-heading')}</h3>
<dl id="receipt-facts" hidden></dl>
<h3 id="receipt-checks-heading" hidden>${t('r-checks-heading')}</h3>
<ul id="receipt-checks" class="checks"></ul>
</div>
${evidenceSettings(l)}
</section>
${
  g.seal
    ? html`<section aria-labelledby="stamps-heading"><h2 id="stamps-heading">${t('r-stamps-heading')}</h2>
<p>${t('r-stamps-text')}</p>
${timestampLines(g.seal_timestamps, 'seal', undefined, l)}</section>`
    : ''
}

<section aria-labelledby="how-heading"><h2 id="how-heading">${t('v-how-heading')}</h2>
<ul>
<li>${t('r-how-1')}</li>
<li>${t('r-how-2')} <a href="${KEYS_PATH}">${t('footer-keys')}</a>.</li>
<li>${t('r-how-3')}</li>
<li>${t('r-how-4')}</li>
</ul></section>
</main>
<footer><p>Tyche · <a href="${pageHref(l, page)}">${t('footer-giveaway')}</a> · <a href="${pageHref(l, '/docs/draw-algorithm')}">${t('footer-how')}</a></p></footer>`;
  const head = html`<meta name="robots" content="noindex"><script type="module" src="${scriptUrl}"></script><script type="module" src="${PAGE_SCRIPT_URL}"></script>
${clientText(l)}${checkTextBlock(l)}`;
  return layout({
    title: `${t('r-title')} — ${g.title}`,
    body,
    head,
    style: PAGE_STYLE + RECEIPT_STYLE,
    lang: l.lang,
  });
}
