import { type Html, html } from '../edge/html.ts';
import { localeFor, type PageLocale } from './page-language.ts';

/**
 * The visitor's own settings for the in-browser check of a seal's time (CONTRACT §8, §13), on the
 * verify page and the receipt page alike: the witnesses they trust (kept in their browser) and how
 * many outside attestations they require (`?require_outside=N` in the address). Hidden until the
 * page's script runs, since only it reads them.
 */
export function evidenceSettings({ t }: PageLocale = localeFor('en')): Html {
  return html`<details id="evidence-settings" hidden><summary>${t('ev-summary')}</summary>
<p><label for="witness-keys">${t('ev-witness-label')}</label> ${t('ev-witness-text')}</p>
<textarea id="witness-keys" rows="3" cols="60" spellcheck="false" autocomplete="off"></textarea>
<p><label for="tsa-trust">${t('ev-tsa-label')}</label> ${t('ev-tsa-text')}</p>
<textarea id="tsa-trust" rows="3" cols="60" spellcheck="false" autocomplete="off"></textarea>
<p><label for="require-outside">${t('ev-require-label')}</label>
<input id="require-outside" type="number" min="0" max="100" step="1" inputmode="numeric" value="0">
${t('ev-require-text')} <code>?require_outside=N</code></p></details>`;
}
