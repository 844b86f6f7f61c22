// The seal on the public giveaway page: what it commits to, and whether anyone outside this
// server backs its time (CONTRACT §7.3, §8, §13). Technical: below the results.

import { type Html, html } from '../edge/html.ts';
import type { PublicGiveaway } from '../giveaways/results/public-giveaway.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import type { TokenVerdict } from '../proof/timestamp/timestamp-evidence.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { PageLocale } from './page-language.ts';
import { hex, logEntry, time } from './page-parts.ts';
import { chainLabel, roundUrl } from './round-links.ts';
import { timestampLines } from './timestamp-lines.ts';

/** What the page knows beyond the public giveaway: whether an outside party backs the seal's time. */
export interface SealEvidence {
  /** A witness cosigned a checkpoint holding the seal before its round (CONTRACT §8, §13). */
  sealWitnessed?: boolean;
  /** The seal's RFC 3161 tokens as this server checked them (timestamp-lines.ts); a valid one dates it before the round. */
  sealTokens?: TokenVerdict[];
}

/** Says the server could not know the winners only when someone outside the server backs the seal's time. */
function sealClaim(seal: Seal, witnessed: boolean, timestamped: boolean, { t }: PageLocale): Html {
  const b = seal.beacon;
  const sealed = html`${t('seal-claim-sealed', { count: seal.entrants.count })} ${time(seal.sealed_at)}, ${t('seal-claim-round', { round: b.round })} ${time(b.round_at)}.`;
  return witnessed || timestamped
    ? html`<p class="notice public" data-seal-claim="${witnessed ? 'witnessed' : 'timestamped'}">${sealed} ${t(witnessed ? 'seal-claim-witnessed' : 'seal-claim-timestamped')}</p>`
    : html`<p class="notice" data-seal-claim="operator">${sealed} ${t('seal-claim-operator')}</p>`;
}

export function sealSection(g: PublicGiveaway, seal: Seal, evidence: SealEvidence, l: PageLocale): Html {
  const { t } = l;
  const b = seal.beacon;
  return html`<section aria-labelledby="seal-heading" id="seal"><h2 id="seal-heading">${t('seal-heading')}</h2>
${sealClaim(seal, evidence.sealWitnessed === true, evidence.sealTokens?.some((v) => v.ok) === true, l)}
<dl>
<dt>${t('seal-id')}</dt><dd><code class="mono">${seal.seal_id}</code></dd>
<dt>${t('g-entrants')}</dt><dd>${seal.entrants.count}</dd>
<dt>${t('seal-root')}</dt><dd>${hex(seal.entrants.root)}</dd>
<dt>${t('seal-sealed-at')}</dt><dd>${time(seal.sealed_at)}</dd>
<dt>${t('seal-round')}</dt><dd>${t('round-word')} <strong data-committed-round>${b.round}</strong> · ${chainLabel(b.chain_hash, l)}</dd>
<dt>${t('seal-round-due')}</dt><dd>${time(b.round_at)} · <a href="${roundUrl(g.drand.relay, b.chain_hash, b.round)}">${t('seal-round-at-relay')}</a></dd>
<dt>${t('seal-after-round')}</dt><dd>${t('seal-after-round-value', { round: b.after_round })} ${hex(b.after_randomness)}</dd>
<dt>${t('seal-owner')}</dt><dd><code class="mono">${seal.giveaway.owner}</code></dd>
<dt>${t('seal-hash')}</dt><dd>${hex(seal.hash)}</dd>
<dt>${t('signature')}</dt><dd>${t('signature-by', { alg: seal.signature.alg })} <a href="${KEYS_PATH}"><code>${seal.signature.kid}</code></a></dd>
<dt>${t('signature-value')}</dt><dd>${hex(seal.signature.value)}</dd>
<dt>${t('log')}</dt><dd>${g.log_index === null ? html`<span class="muted">${t('log-not-yet')}</span>` : logEntry(g, 'log_index', l)}</dd>
<dt>${t('timestamps')}</dt><dd>${timestampLines(g.seal_timestamps, 'seal', evidence.sealTokens, l)}</dd>
</dl>
<p>${t('seal-keep-copy')} <a href="/g/${g.public_id}.json" type="application/json">${t('seal-keep-copy-link')}</a>.</p>
</section>`;
}
