// The top of /verify/{id}: the verdict, with the button that re-runs every check in the browser,
// sits right under the title where a visitor looks first; the evidence follows below. The checks
// themselves fold under the verdict when all passed on a narrow screen, so the winners follow it
// there instead of a screenful of passed checks; a check that failed or warned unfolds them. And the
// command an outsider can run: the standalone verifier this server serves, with plain Node.js
// (the package itself is not published, so `npx tyche` would not find it).

import { type Html, html } from '../edge/html.ts';
import { STANDALONE_VERIFIER } from './browser-modules.ts';
import type { PageLocale } from './page-language.ts';

interface VerifyUrls {
  page: string;
  json: string;
  keys: string;
  relay?: string;
}

export function verifyBox(cert: { hash?: string }, urls: VerifyUrls, { t }: PageLocale): Html {
  return html`<section id="verify" aria-labelledby="verify-heading" data-certificate-url="${urls.json}" data-keys-url="${urls.keys}" data-hash="${cert.hash}" data-relay="${urls.relay}">
<h2 id="verify-heading">${t('v-check-heading')}</h2>
<p>${t('v-check-lead')}</p>
<button type="button" id="verify-button" hidden>${t('v-verify-button')}</button>
<noscript><p>${t('v-check-noscript')}</p></noscript>
<div id="verify-result" aria-live="polite"><p id="verify-status"></p><details id="verify-details" hidden><summary>${t('v-check-each')}</summary><ul id="verify-checks" class="checks"></ul></details></div>
</section>`;
}

/** `curl -O …/tyche-verify.mjs && node tyche-verify.mjs <args>`: works for anyone with Node 20+. */
export function verifierCommand(baseUrl: string, args: string): string {
  const file = STANDALONE_VERIFIER.url.slice(1);
  return `curl -O ${baseUrl}${STANDALONE_VERIFIER.url} && node ${file} ${args}`;
}

/** The public base URL of a page's absolute address. */
export const baseOf = (pageUrl: string) => pageUrl.replace(/\/(verify|g)\/.*$/, '');

export function terminalHint(pageUrl: string, { t }: PageLocale, option?: string): Html {
  return html`<p>${t('v-terminal')}</p><pre tabindex="0"><code class="mono" data-verifier-command>${verifierCommand(baseOf(pageUrl), pageUrl)}</code></pre>
${option ? html`<p class="muted">${option}</p>` : ''}`;
}
