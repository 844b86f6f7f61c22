import { toHex } from '../../proof/draw-v1.ts';
import type { CertificateV1 } from '../../proof/verify-v1.ts';
import {
  DRAND_QUICKNET,
  DRAND_URL,
  parseDrandBeacon,
  verifyDrandBeacon,
} from '../../randomness/sources/drand.source.ts';
import { fetchJson } from '../../randomness/sources/http-json.ts';
import { checkNistIntegrity, NIST_BEACON_URL, parseNistPulse } from '../../randomness/sources/nist.source.ts';

/** Where to read public beacon records; the defaults are the public services. */
export interface BeaconRelays {
  nist?: string;
  drand?: string;
}

const NIST_PULSE = /^https:\/\/beacon\.nist\.gov\/beacon\/2\.0\/(chain\/\d+\/pulse\/\d+)$/;
const TIMEOUT_MS = 15_000;

/**
 * draw-algorithm.md §8 step 3: fetch the public record named by `source_reference` and compare its
 * value with `beacon_value`. The record is checked as the server checks it when drawing (NIST: the
 * pulse's SHA-512 output; drand: the BLS signature under the quicknet key).
 */
export async function compareBeaconRecord(
  randomness: CertificateV1['randomness'],
  relays: BeaconRelays = {},
): Promise<{ ok: boolean; detail: string }> {
  const { source, source_reference: reference, beacon_value: value } = randomness;
  try {
    if (source === 'nist') {
      const path = NIST_PULSE.exec(reference)?.[1];
      if (!path)
        return { ok: false, detail: `${JSON.stringify(reference)} is not a NIST Beacon 2.0 pulse URI` };
      const url = `${(relays.nist ?? NIST_BEACON_URL).replace(/\/+$/, '')}/${path}`;
      const pulse = parseNistPulse(await fetchJson({ source: 'nist', url, timeoutMs: TIMEOUT_MS }));
      checkNistIntegrity(pulse);
      if (pulse.uri !== reference) return { ok: false, detail: `${url} holds pulse ${pulse.uri}` };
      return compare(toHex(pulse.outputValue), value, `NIST pulse ${reference} (outputValue)`);
    }
    if (source === 'drand') {
      if (!/^[1-9][0-9]*$/.test(reference))
        return { ok: false, detail: `${JSON.stringify(reference)} is not a drand round` };
      const url = `${(relays.drand ?? DRAND_URL).replace(/\/+$/, '')}/${DRAND_QUICKNET.chainHash}/public/${reference}`;
      const beacon = parseDrandBeacon(await fetchJson({ source: 'drand', url, timeoutMs: TIMEOUT_MS }));
      if (String(beacon.round) !== reference)
        return { ok: false, detail: `${url} holds round ${beacon.round}` };
      verifyDrandBeacon(beacon, DRAND_QUICKNET.publicKey);
      return compare(
        toHex(beacon.randomness),
        value,
        `drand quicknet round ${reference} (BLS signature valid)`,
      );
    }
  } catch (error) {
    return { ok: false, detail: `cannot read the public record: ${(error as Error).message}` };
  }
  return { ok: false, detail: `${source} is not a public beacon` };
}

function compare(published: string, recorded: string | undefined, what: string) {
  return published === recorded
    ? { ok: true, detail: `beacon_value equals ${what}` }
    : { ok: false, detail: `${what} is ${published}, the certificate says ${recorded}` };
}
