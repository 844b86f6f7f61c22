import { html, layout } from '../edge/html.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import { OPERATOR_TRUST_LABEL } from '../proof/report.ts';
import { PAGE_STYLE } from './page-parts.ts';
import { timestampLines } from './timestamp-lines.ts';
import { evidenceSettings } from './verify-page-evidence.ts';

const RECEIPT_STYLE = `
#receipt-code-form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:1rem 0}
#receipt-code-form label{flex-basis:100%;font-weight:600}
#receipt-code{font:inherit;font-family:ui-monospace,monospace;flex:1 1 18rem;min-width:0;min-height:44px;padding:.4rem .6rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}
.summary{border-left:4px solid var(--line);padding:.1rem 1rem;margin:1rem 0;border-radius:0 .4rem .4rem 0}
.summary.ok{border-left-color:var(--ok);background:var(--ok-bg)}.summary.bad{border-left-color:var(--bad);background:var(--bad-bg)}
.outcome{font-size:1.4rem;font-weight:700;margin:.6rem 0}.outcome.won{color:var(--ok)}
.place{font-size:1.15rem;margin:.6rem 0}#receipt-save{margin:0 0 1.25rem}
.late{font-weight:600;border-left:4px solid var(--bad);padding-left:.6rem}`;

/**
 * The entrant's own check. The server renders only the frame: the receipt code lives in the
 * address fragment, which browsers never send, and the script reads it there.
 */
export function renderReceiptPage(g: PublicGiveaway, scriptUrl: string): string {
  const page = `/g/${g.public_id}`;
  const body = html`<main>
<header><p class="eyebrow">Tyche entry receipt</p><h1>${g.title}</h1>
<p>Giveaway <a href="${page}"><code>${g.public_id}</code></a>${g.draw_mode === 'instant' ? html` · instant draw: ${OPERATOR_TRUST_LABEL}` : ''}</p></header>

<noscript><p class="notice">This page checks your receipt in your browser, so it needs JavaScript. Without it, save the receipt
the bot or the organiser gave you and run <code class="mono">npx tyche verify --receipt receipt.json</code>, or use
<a href="/tyche-verify.mjs">the standalone verifier</a>.</p></noscript>

<section id="receipt" aria-labelledby="receipt-heading" data-public-id="${g.public_id}" data-giveaway-url="${page}.json" data-keys-url="${KEYS_PATH}" data-base="${page}">
<h2 id="receipt-heading">Your entry</h2>
<form id="receipt-code-form" hidden>
<label for="receipt-code">Receipt code or link (the part after # looks like <code>123456789.0f3a…</code>)</label>
<input id="receipt-code" name="code" autocomplete="off" spellcheck="false" inputmode="text">
<button type="submit">Check my entry</button>
</form>
<div id="receipt-result" aria-live="polite">
<div id="receipt-summary" class="summary">
<p id="receipt-outcome" class="outcome" hidden></p>
<p id="receipt-late" class="late" hidden></p>
<p id="receipt-place" class="place" hidden></p>
<p id="receipt-status"></p>
</div>
<button type="button" id="receipt-save" hidden>Save receipt</button>
<dl id="receipt-facts" hidden></dl>
<h3 id="receipt-checks-heading" hidden>Checks run in your browser</h3>
<ul id="receipt-checks" class="checks"></ul>
</div>
${evidenceSettings()}
</section>
${
  g.seal
    ? html`<section aria-labelledby="stamps-heading"><h2 id="stamps-heading">The seal's timestamps</h2>
<p>Time-stamping authorities outside this server that dated the seal; your browser checks each one when it checks your entry.</p>
${timestampLines(g.seal_timestamps, 'seal')}</section>`
    : ''
}

<section aria-labelledby="how-heading"><h2 id="how-heading">How this works</h2>
<ul>
<li>Your receipt code (your Telegram id and a random salt) stays in this browser: it is after <code>#</code> in the address, which is never sent to the server.</li>
<li>Your browser computes your <em>leaf hash</em> from it, fetches your signed entry ticket and your place in the sealed list, and checks them against the signed seal and the <a href="${KEYS_PATH}">published keys</a>.</li>
<li>Once the drand round the seal commits to is public, it re-runs the draw from the seal and that round, and tells you whether you won — without trusting this server, and even if the server has not published the result yet (the page then says so).</li>
<li>“Save receipt” keeps a copy on your device. With it you can show that your entry was acknowledged, even if it were left out of the list.</li>
</ul></section>
</main>
<footer><p>Tyche · <a href="${page}">the giveaway</a> · <a href="/docs/draw-algorithm">how the draw works</a></p></footer>`;
  const head = html`<meta name="robots" content="noindex"><script type="module" src="${scriptUrl}"></script>`;
  return layout({
    title: `Your entry — ${g.title}`,
    body,
    head,
    style: PAGE_STYLE + RECEIPT_STYLE,
  });
}
