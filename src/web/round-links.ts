// How the pages name a drand chain and link a round at the relay the server uses.

import { type Html, html } from '../edge/html.ts';
import { QUICKNET } from '../proof/drand.ts';
import { localeFor, type PageLocale } from './page-language.ts';

export function chainLabel(chainHash: string, { t }: PageLocale = localeFor('en')): Html {
  return chainHash === QUICKNET.hash
    ? html`${t('chain-quicknet')} (<code class="mono">${chainHash}</code>)`
    : html`${t('chain-other')} <code class="mono">${chainHash}</code>`;
}

/** Where anyone reads a round from the relay the server uses: the same URL the pages' scripts fetch. */
export function roundUrl(relay: string, chainHash: string, round: number): string {
  return `${relay.replace(/\/+$/, '')}/${chainHash}/public/${round}`;
}
