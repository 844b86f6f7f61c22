// Where the verifier reads a drand round itself (CONTRACT §7.7 "a second opinion", §7.8 the
// entrant's own outcome): --relay, else DRAND_URL, else the relay the giveaway's public JSON names.

import { beaconRecordOf, type DrandBeaconRecord } from '../../proof/drand.ts';
import { isRecord } from '../../proof/report.ts';
import { trimSlash, type VerifyContext } from './verify-context.ts';
import { CannotCheck, fetchJson, isUrl } from './verify-inputs.ts';

/** The relay to ask for the round: --relay, DRAND_URL, or the one the giveaway's public JSON names. */
export async function relayOf(
  context: VerifyContext,
  server: string,
  publicId: string,
  giveaway?: unknown,
): Promise<string> {
  const named = (context.values.relay as string | undefined) || context.io.env.DRAND_URL;
  if (named) return trimSlash(named);
  const url = `${server}/g/${encodeURIComponent(publicId)}.json`;
  const json = giveaway ?? (await fetchJson(url, 'giveaway')).json;
  const relay = isRecord(json) && isRecord(json.drand) ? json.drand.relay : undefined;
  if (typeof relay !== 'string' || !isUrl(relay)) {
    throw new CannotCheck(`${url} names no drand relay; pass --relay URL`);
  }
  return trimSlash(relay);
}

/** The round as the relay serves it; undefined when the relay says it is not out yet (404, 425). */
export async function relayRound(
  relay: string,
  chainHash: string,
  round: number,
): Promise<{ url: string; record?: DrandBeaconRecord }> {
  const url = `${relay}/${chainHash}/public/${round}`;
  const { json, status } = await fetchJson(url, `drand round ${round}`, [404, 425]);
  if (status === 404 || status === 425) return { url };
  if (!isRecord(json)) throw new CannotCheck(`${url} did not answer a JSON object`);
  return { url, record: beaconRecordOf(json) };
}
