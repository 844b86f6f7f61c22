import { PAGE_CSP } from '../../edge/html.ts';
import { escapeHtml } from '../../shared/html-escape.ts';
import { pageCsp } from '../page-parts.ts';
import type { AppStrings } from './app-strings.ts';

export const APP_SCRIPT_URL = '/assets/js/app/app.js';

/**
 * Telegram Web opens a Mini App in an iframe of web.telegram.org; the phone and desktop apps use
 * a web view, which frame-ancestors does not concern. No other site may frame the app.
 */
const FRAMED_BY = 'https://web.telegram.org';

/** The page CSP with the relay the receipt check reads rounds from, framed by Telegram Web only. */
export function appCsp(relayUrl: string): string {
  const csp = pageCsp(relayUrl).replace("frame-ancestors 'none'", `frame-ancestors ${FRAMED_BY}`);
  if (!csp.includes(FRAMED_BY) || !PAGE_CSP.includes("frame-ancestors 'none'")) {
    throw new Error('PAGE_CSP has no frame-ancestors to open to Telegram');
  }
  return csp;
}

// Telegram's theme reaches the page as --tg-theme-* variables (bound by the SDK from the launch
// parameters); the fallbacks are for the first paint and for a browser outside Telegram.
const STYLE = `
:root{color-scheme:light dark;
--bg:var(--tg-theme-bg-color,#fff);--fg:var(--tg-theme-text-color,#1b1f24);--hint:var(--tg-theme-hint-color,#5f6b76);
--link:var(--tg-theme-link-color,#1a66b3);--btn:var(--tg-theme-button-color,#2a7ac0);--btn-fg:var(--tg-theme-button-text-color,#fff);
--section:var(--tg-theme-section-bg-color,var(--tg-theme-secondary-bg-color,#f1f3f5));--line:var(--tg-theme-section-separator-color,#d0d7de);
--bad:var(--tg-theme-destructive-text-color,#c0212b);--accent:var(--tg-theme-accent-text-color,var(--link));--ok:#1a7f37;--warn:#8a5a00}
@media (prefers-color-scheme:dark){:root{--bg:var(--tg-theme-bg-color,#17212b);--fg:var(--tg-theme-text-color,#f5f5f5);
--hint:var(--tg-theme-hint-color,#9aa7b3);--link:var(--tg-theme-link-color,#6ab3f3);--btn:var(--tg-theme-button-color,#5288c1);
--section:var(--tg-theme-section-bg-color,var(--tg-theme-secondary-bg-color,#232e3c));--line:var(--tg-theme-section-separator-color,#33404d);
--bad:var(--tg-theme-destructive-text-color,#ff6b6b);--ok:#4fcf70;--warn:#e0b040}}
html.tg-dark{--ok:#4fcf70;--warn:#e0b040}html.tg-light{--ok:#1a7f37;--warn:#8a5a00}
:root{--hint-text:color-mix(in srgb,var(--hint) 60%,var(--fg));--link-text:color-mix(in srgb,var(--link) 75%,var(--fg))}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:40rem;margin:0 auto;
padding:calc(.75rem + var(--tg-viewport-safe-area-inset-top,env(safe-area-inset-top,0px)) + var(--tg-viewport-content-safe-area-inset-top,0px))
calc(.75rem + var(--tg-viewport-safe-area-inset-right,env(safe-area-inset-right,0px)))
calc(1.5rem + var(--tg-viewport-safe-area-inset-bottom,env(safe-area-inset-bottom,0px)) + var(--tg-viewport-content-safe-area-inset-bottom,0px))
calc(.75rem + var(--tg-viewport-safe-area-inset-left,env(safe-area-inset-left,0px)))}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.2rem 0 .5rem}h3{font-size:1rem;margin:.9rem 0 .4rem}
p{margin:.4rem 0}a{color:var(--link-text)}.hint{color:var(--hint-text);font-size:.9rem}
.tabs{display:flex;gap:.25rem;background:var(--section);border-radius:.7rem;padding:.25rem;margin:.6rem 0}
.tabs button{flex:1;background:transparent;color:var(--fg);font-size:1rem;font-weight:600}
.tabs button[aria-selected=true]{background:var(--bg);box-shadow:0 1px 2px rgba(0,0,0,.15)}
button,.button{font:inherit;font-size:1.1875rem;font-weight:700;min-height:44px;padding:.55rem 1rem;border-radius:.6rem;border:0;background:var(--btn);color:var(--btn-fg);cursor:pointer;text-decoration:none;display:inline-flex;align-items:center;justify-content:center}
button.secondary,.button.secondary{background:var(--section);color:var(--link-text)}button.danger{background:var(--section);color:var(--bad)}
button:disabled{opacity:.55;cursor:progress}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.list{list-style:none;margin:0;padding:0}
.card{display:block;width:100%;text-align:left;background:var(--section);color:var(--fg);border-radius:.8rem;padding:.75rem .9rem;margin:.5rem 0;font-weight:400}
.card strong{display:block;overflow-wrap:anywhere}
.row{display:flex;flex-wrap:wrap;gap:.35rem .6rem;align-items:center}
.badge{display:inline-block;font-size:.8rem;font-weight:600;padding:.1rem .5rem;border-radius:1rem;border:1px solid var(--line);color:var(--hint-text)}
.badge.completed{color:var(--ok);border-color:var(--ok)}.badge.active{color:var(--link-text);border-color:var(--link-text)}
.panel{background:var(--section);border-radius:.8rem;padding:.75rem .9rem;margin:.75rem 0}
.outcome{font-size:1.15rem;font-weight:700}.outcome.won{color:var(--ok)}
.verdict.ok{color:var(--ok)}.verdict.bad{color:var(--bad)}.verdict.warn{color:var(--warn)}
summary{cursor:pointer;font-weight:700;padding:.5rem 0;min-height:44px;box-sizing:border-box}
.checks{list-style:none;margin:0;padding:0}
.check{display:grid;grid-template-columns:1.3rem 1fr;gap:0 .2rem;padding:.4rem 0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.check .mark{font-weight:700}.check.ok .mark{color:var(--ok)}.check.bad .mark,.check.bad strong{color:var(--bad)}.check.warn .mark{color:var(--warn)}
.check .detail{grid-column:2;font-size:.85rem;color:var(--hint-text)}
.check.appear{animation:appear .25s ease-out}@keyframes appear{from{opacity:0;transform:translateY(4px)}to{opacity:1}}
@media (prefers-reduced-motion:reduce){.check.appear{animation:none}}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:.3rem 0}dt{color:var(--hint-text)}dd{margin:0;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,monospace;font-size:.85em;overflow-wrap:anywhere}
form label{display:block;font-weight:600;margin:.8rem 0 .25rem}
input,textarea,select{font:inherit;width:100%;min-height:44px;padding:.5rem .6rem;border-radius:.5rem;border:1px solid var(--line);background:var(--bg);color:var(--fg)}
textarea{min-height:5rem}
.field-error{color:var(--bad);font-size:.9rem;margin:.25rem 0 0}
[aria-invalid=true]{border-color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.75rem 0}.actions>*{flex:1 1 10rem}
.links li{display:flex;justify-content:space-between;align-items:center;gap:.5rem;padding:.3rem 0;border-bottom:1px solid var(--line)}
.links a{overflow-wrap:anywhere}
.winners li{padding:.45rem 0;border-bottom:1px solid var(--line)}
.reasons{display:grid;gap:.4rem;margin:.5rem 0}
.chart{width:100%;min-height:220px}
.status{min-height:1.4em}
[hidden]{display:none!important}
.uplot,.uplot *{box-sizing:border-box}.uplot{font-family:inherit;line-height:1.5;width:min-content}
.u-wrap{position:relative;user-select:none}.u-over,.u-under{position:absolute}.u-under{overflow:hidden}
.uplot canvas{display:block;position:relative;width:100%;height:100%}.u-axis{position:absolute}
.u-legend{font-size:.85rem;margin:auto;text-align:center;color:var(--fg)}.u-inline{display:block}.u-inline *{display:inline-block}
.u-inline tr{margin-right:16px}.u-legend th{font-weight:600}.u-legend th>*{vertical-align:middle;display:inline-block}
.u-legend .u-marker{width:1em;height:1em;margin-right:4px;background-clip:padding-box!important}
.u-inline.u-live th::after{content:":";vertical-align:middle}.u-inline:not(.u-live) .u-value{display:none}
.u-series>*{padding:4px}.u-legend .u-off>*{opacity:.3}
.u-select{background:rgba(0,0,0,.07);position:absolute;pointer-events:none}
.u-cursor-x,.u-cursor-y{position:absolute;left:0;top:0;pointer-events:none}
.u-hz .u-cursor-x{height:100%;border-right:1px dashed var(--hint)}.u-hz .u-cursor-y{width:100%;border-bottom:1px dashed var(--hint)}
.u-cursor-pt{position:absolute;top:0;left:0;border-radius:50%;border:0 solid;pointer-events:none;background-clip:padding-box!important}
.u-axis.u-off,.u-select.u-off,.u-cursor-x.u-off,.u-cursor-y.u-off,.u-cursor-pt.u-off{display:none}`;

/** JSON inside a script element: `<` escaped, so no text can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The app's one page: an empty shell the script fills once Telegram's sign-in succeeds, with
 * both languages' words embedded (the language is known only after sign-in). Without
 * JavaScript, or outside Telegram, it says where to open it.
 */
export function renderAppPage(strings: AppStrings, settings: { base: string; relay: string }): string {
  const en = strings.en;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(en['app-title'])}</title><style>${STYLE}</style></head>
<body><main id="app" data-base="${escapeHtml(settings.base)}" data-relay="${escapeHtml(settings.relay)}">
<header><h1 id="app-heading">${escapeHtml(en['app-title'])}</h1><p id="app-user" class="hint" hidden></p></header>
<div id="app-tabs" class="tabs" role="tablist" hidden>
<button type="button" role="tab" id="tab-entries" aria-controls="app-view" aria-selected="true"></button>
<button type="button" role="tab" id="tab-giveaways" aria-controls="app-view" aria-selected="false"></button>
</div>
<p id="app-status" class="status" role="status" aria-live="polite">${escapeHtml(en['app-loading'])}</p>
<section id="app-view" aria-labelledby="app-heading"></section>
<noscript><p>${escapeHtml(en['app-outside-telegram'])}</p></noscript>
</main>
<script type="application/json" id="app-strings">${scriptJson(strings)}</script>
<script type="module" src="${APP_SCRIPT_URL}"></script>
</body></html>`;
}
