import type { FastifyReply } from 'fastify';
import { type Html, html, layout, PAGE_CSP } from '../edge/html.ts';
import { formatUtc, logEntryText } from '../pdf/certificate-text.ts';
import { localeFor, type PageLocale, pageHref } from './page-language.ts';

/** The look shared by /verify and /g pages: definition lists, tables, the check list. */
export const PAGE_STYLE = `
header{margin-bottom:1.5rem}.eyebrow{margin:0;color:var(--muted);font-size:.9rem;text-transform:uppercase;letter-spacing:.05em}
h1{margin:.2rem 0 .5rem;font-size:1.8rem;line-height:1.25;overflow-wrap:anywhere}h2{font-size:1.25rem;margin:2rem 0 .5rem}
h3{font-size:1.05rem;margin:1.25rem 0 .4rem}
dl{display:grid;grid-template-columns:minmax(9rem,14rem) 1fr;gap:.35rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere;min-width:0}
@media (max-width:36rem){dl{grid-template-columns:1fr}dd{margin-bottom:.5rem}h1{font-size:1.45rem}}
.table-wrap{overflow-x:auto}td{overflow-wrap:anywhere}td.mono{white-space:nowrap}caption{text-align:left;color:var(--muted);padding:.25rem 0}
button{font:inherit;font-weight:600;min-height:44px;padding:.5rem 1.25rem;border-radius:.4rem;border:0;background:var(--accent);color:var(--bg);cursor:pointer}
button:disabled{opacity:.6;cursor:progress}button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.panel,#verify{border:1px solid var(--line);border-radius:.5rem;padding:0 1rem 1rem;margin-top:2rem}
.notice{border-left:4px solid var(--warn);background:var(--warn-bg);padding:.6rem .9rem;margin:1rem 0;border-radius:0 .4rem .4rem 0}
.notice.public{border-left-color:var(--ok);background:var(--ok-bg)}
.verdict{font-weight:700;font-size:1.1rem}.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.skip{color:var(--muted)}
.checks{list-style:none;padding:0}.check{display:grid;grid-template-columns:1.4rem 1fr;padding:.35rem 0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.check .mark{font-weight:700}.check .detail{grid-column:2;color:var(--fg);font-size:.9rem}
.badge{display:inline-block;font-size:.85rem;font-weight:600;padding:.1rem .55rem;border-radius:1rem;border:1px solid var(--line);vertical-align:middle}
.description{white-space:pre-line;overflow-wrap:anywhere}
details{border-bottom:1px solid var(--line);padding:.4rem 0}summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}
ol.hashes{margin:.3rem 0;padding-left:1.6rem}ol.hashes li{font-family:ui-monospace,monospace;font-size:.85em;overflow-wrap:anywhere}
footer{margin-top:2rem;color:var(--muted);font-size:.9rem}
.lang-switch{text-align:right;font-size:.9rem;margin:0 0 .25rem}.lang-switch span[aria-current]{font-weight:600}
.local-time{color:var(--muted)}
.notice.neutral{border-left-color:var(--line);background:transparent}
.people{padding-left:1.6rem;margin:.3rem 0}.people li{margin:.2rem 0;font-size:1.1rem;overflow-wrap:anywhere}.people .who{font-weight:600}
.results{border:2px solid var(--ok);border-radius:.5rem;padding:.25rem 1rem 1rem;margin:1rem 0}.results h2{margin-top:.75rem}
.button{display:inline-block;font-weight:600;min-height:44px;line-height:44px;padding:0 1.25rem;border-radius:.4rem;background:var(--accent);color:var(--bg);text-decoration:none}
.countdown{font-size:1.6rem;font-weight:700;font-variant-numeric:tabular-nums}
[hidden]{display:none!important}
:root{--ok:#1a7f37;--bad:#c0212b;--warn:#9a6700;--warn-bg:#fff8c5;--ok-bg:#dafbe1;--bad-bg:#ffebe9}
@media (prefers-color-scheme:dark){:root{--ok:#3fb950;--bad:#ff7b72;--warn:#d29922;--warn-bg:#2b2111;--ok-bg:#12261e;--bad-bg:#2d1214}}`;

export function hex(value: unknown): Html {
  return html`<code class="mono">${value ?? '—'}</code>`;
}

export function time(iso: string): Html {
  return html`<time datetime="${iso}">${formatUtc(iso)}</time>`;
}

/**
 * The page CSP, with one more origin the page's script may fetch from: the drand relay, so the
 * browser reads the round itself rather than taking the server's word for it.
 */
export function pageCsp(relayUrl?: string): string {
  if (!relayUrl) return PAGE_CSP;
  const origin = new URL(relayUrl).origin;
  const csp = PAGE_CSP.replace("connect-src 'self'", `connect-src 'self' ${origin}`);
  if (csp === PAGE_CSP) throw new Error('PAGE_CSP has no connect-src to extend');
  return csp;
}

export function sendPage(reply: FastifyReply, status: number, page: string, csp: string = PAGE_CSP) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(page);
}

/** A published document's log entry, linked to the entry itself. */
export function logEntry(
  doc: object,
  member: 'log_index' | 'seal_log_index',
  { t }: PageLocale = localeFor('en'),
): Html {
  const text = logEntryText(doc, member, t);
  const index = (doc as Record<string, unknown>)[member];
  if (typeof index !== 'number') return html`<span class="muted">${text}</span>`;
  return html`<a href="/log/entries?start=${index}&amp;end=${index + 1}">${text}</a>`;
}

/** The 404 page of a certificate or giveaway: what was not found, the id as asked, the way back. */
export function notFoundPage(
  locale: PageLocale,
  keys: { heading: string; text: string },
  id: string,
): string {
  const { t } = locale;
  const body = html`<main><h1>${t(keys.heading)}</h1>
<p>${t(keys.text)} <code class="mono">${id}</code></p>
<p><a href="${pageHref(locale, '/')}">Tyche</a> · <a href="${pageHref(locale, '/docs/draw-algorithm')}">${t('footer-how')}</a></p></main>`;
  return layout({ title: `${t(keys.heading)} — Tyche`, body, style: PAGE_STYLE, lang: locale.lang });
}
