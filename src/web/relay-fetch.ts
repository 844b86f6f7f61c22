// The browser's own reads from the drand relay (CONTRACT §7.7 "a second opinion"): the page does
// not take the server's copy of a round, it asks the relay, which the page CSP allows by origin.

import { beaconRecordOf, type DrandBeaconRecord, parseChainInfo, QUICKNET } from '../proof/drand.ts';
import { isRecord } from '../proof/report.ts';
import type { DrandChainInfo } from '../proof/v2-types.ts';
import { fetchJson, type ShownCheck } from './check-list.ts';
import { noteLine } from './check-notes.ts';

const base = (relay: string) => relay.replace(/\/+$/, '');

/**
 * Quicknet's key is built into the verifier. Another chain's key is read from the relay's /info,
 * and the page says so: that key is then only as trustworthy as the relay.
 */
export async function chainsFor(
  relay: string,
  chainHash: string,
): Promise<{ chains: DrandChainInfo[]; notes: ShownCheck[] }> {
  if (chainHash === QUICKNET.hash) return { chains: [], notes: [] };
  const url = `${base(relay)}/${chainHash}/info`;
  try {
    const info = parseChainInfo(await fetchJson(url));
    if (info.hash !== chainHash) throw new Error(`it describes chain ${info.hash}`);
    return {
      chains: [info],
      notes: [noteLine('chainKeyLabel', 'chainKeyRead', { chain: chainHash, url })],
    };
  } catch (error) {
    return {
      chains: [],
      notes: [noteLine('chainKeyLabel', 'chainKeyUnread', { url, problem: (error as Error).message })],
    };
  }
}

/** The round as the relay serves it, or why it could not be read. */
export async function relayRound(
  relay: string,
  chainHash: string,
  round: number,
): Promise<{ record?: DrandBeaconRecord; url: string; problem?: string }> {
  const url = `${base(relay)}/${chainHash}/public/${round}`;
  try {
    const json = await fetchJson(url);
    if (!isRecord(json)) return { url, problem: 'the relay answered something that is not a JSON object' };
    return { url, record: beaconRecordOf(json) };
  } catch (error) {
    return { url, problem: (error as Error).message };
  }
}
