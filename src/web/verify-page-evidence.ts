import { type Html, html } from '../edge/html.ts';

/**
 * The visitor's own settings for the in-browser check of a seal's time (CONTRACT §8, §13), on the
 * verify page and the receipt page alike: the witnesses they trust (kept in their browser) and how
 * many outside attestations they require (`?require_outside=N` in the address). Hidden until the
 * page's script runs, since only it reads them.
 */
export function evidenceSettings(): Html {
  return html`<details id="evidence-settings" hidden><summary>Witnesses you trust, and outside evidence you require</summary>
<p><label for="witness-keys">Verifier keys of the witnesses you trust, one per line.</label> Only these count when the page says
whether the seal was witnessed before the round; they stay in this browser.</p>
<textarea id="witness-keys" rows="3" cols="60" spellcheck="false" autocomplete="off"></textarea>
<p><label for="tsa-trust">Further time-stamping roots you trust (PEM).</label> The page checks each TSA token against the roots it
carries and these, never against a certificate that comes only with the token; they stay in this browser.</p>
<textarea id="tsa-trust" rows="3" cols="60" spellcheck="false" autocomplete="off"></textarea>
<p><label for="require-outside">Outside attestations you require</label>
<input id="require-outside" type="number" min="0" max="100" step="1" inputmode="numeric" value="0">
With 1 or more, a seal that fewer outside parties dated before its round fails the check, where otherwise a seal whose time
only the operator attests carries a warning. The address keeps it as <code>?require_outside=N</code>, so a link can ask for it.</p></details>`;
}
