import { createHash, randomBytes } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import type { DrandChainInfo } from '../../src/proof/v2-types.ts';
import type { RandomnessTuning } from '../../src/randomness/randomness.setup.ts';
import type { Clock } from '../../src/randomness/source.ts';
import {
  DRAND_DST,
  type DrandChain,
  drandRoundAt,
  drandRoundMessage,
} from '../../src/randomness/sources/drand.source.ts';
import { nistOutputValue, serializeNistPulse } from '../../src/randomness/sources/nist.source.ts';
import { COMMON_MODES, type FakeUpstream, json, type Reply, startFakeServer } from './fake-http-upstream.ts';

export { COMMON_MODES, type FakeUpstream } from './fake-http-upstream.ts';

/** The only attested sentence of the keyless ANU rate-limit answer (HTTP 500). */
export const ANU_RATE_LIMIT_TEXT = 'The QRNG API is limited to 1 requests per minute.';
export const ANU_MODES = [...COMMON_MODES, 'success-false', 'wrong-type', 'too-few', 'out-of-range'] as const;
export type AnuMode = 'ok' | (typeof ANU_MODES)[number];

const ANU_KEYLESS_PATH = '/API/jsonI.php';
const notFound: Reply = { status: 404, body: 'Not Found' };

/**
 * Keyless (`/API/jsonI.php`, numeric `length`) or keyed (`/`, string `length`, `x-api-key` required
 * and, when `apiKey` is given, equal to it), in the key order each endpoint really uses.
 */
export function startFakeAnu(
  options: { keyed?: boolean; apiKey?: string } = {},
): Promise<FakeUpstream<AnuMode>> {
  const { keyed = false, apiKey } = options;
  return startFakeServer<AnuMode>({
    basePath: keyed ? '' : ANU_KEYLESS_PATH,
    errorBody: ANU_RATE_LIMIT_TEXT,
    handle(req, mode) {
      if (req.path !== (keyed ? '/' : ANU_KEYLESS_PATH)) return notFound;
      const key = req.headers['x-api-key'];
      if (keyed && (!key || (apiKey !== undefined && key !== apiKey)))
        return json({ message: 'Forbidden' }, 403);
      const length = Number(req.query.get('length'));
      if (!Number.isInteger(length) || length < 1 || length > 1024 || req.query.get('type') !== 'uint8') {
        return json({ success: false, message: 'unsupported length or type' }, 400);
      }
      let data = Array.from(randomBytes(length));
      if (mode === 'too-few') data = data.slice(1);
      if (mode === 'out-of-range') data[data.length - 1] = 256;
      const success = mode !== 'success-false';
      const type = mode === 'wrong-type' ? 'uint16' : 'uint8';
      return keyed
        ? json({ success, type, length: String(data.length), data })
        : json({ type, length: data.length, data, success });
    },
  });
}

export const NIST_MODES = [...COMMON_MODES, 'bad-output-value', 'integrity-mismatch', 'stale'] as const;
export type NistMode = 'ok' | (typeof NIST_MODES)[number];
export interface FakeNist extends FakeUpstream<NistMode> {
  readonly period: number;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

/**
 * Serves `<url>/pulse/last`: a fresh pulse per period of `clock`, internally consistent
 * (outputValue = SHA-512(serialization ‖ signature)) though signed by no real key, pretty-printed
 * with CRLF like the real beacon.
 */
export async function startFakeNist(options: {
  clock: Clock;
  period?: number;
  version?: string;
}): Promise<FakeNist> {
  const { clock, period = 60_000, version = '2.0' } = options;
  const certificateId = randomBytes(64);
  const zeros = new Uint8Array(64);
  const pulses = new Map<number, Record<string, unknown>>();
  let base = '';

  const pulseAt = (index: number): Record<string, unknown> => {
    const cached = pulses.get(index);
    if (cached) return cached;
    const lists = [
      ['previous', index - 1],
      ['hour', index - (index % 60)],
      ['day', index - (index % 1440)],
      ['month', index - 40_000],
      ['year', index - 500_000],
    ] as const;
    const listValues = lists.map(() => new Uint8Array(randomBytes(64)));
    const fields = {
      uri: `${base}/chain/2/pulse/${index}`,
      version,
      cipherSuite: 0,
      period,
      certificateId,
      chainIndex: 2,
      pulseIndex: index,
      timeStamp: new Date(index * period).toISOString(),
      localRandomValue: randomBytes(64),
      external: { sourceId: zeros, statusCode: 0, value: zeros },
      listValues,
      precommitmentValue: randomBytes(64),
      statusCode: 0,
    };
    const signatureValue = randomBytes(512);
    const pulse = {
      ...fields,
      certificateId: hex(certificateId),
      localRandomValue: hex(fields.localRandomValue),
      external: { sourceId: hex(zeros), statusCode: 0, value: hex(zeros) },
      listValues: lists.map(([type, i], n) => ({
        uri: `${base}/chain/2/pulse/${i}`,
        type,
        value: hex(listValues[n]),
      })),
      precommitmentValue: hex(fields.precommitmentValue),
      signatureValue: hex(signatureValue),
      outputValue: hex(nistOutputValue(serializeNistPulse(fields), signatureValue)),
    };
    pulses.set(index, pulse);
    return pulse;
  };

  const fake = await startFakeServer<NistMode>({
    basePath: '/beacon/2.0',
    handle(req, mode) {
      if (req.path !== '/beacon/2.0/pulse/last') return { status: 404, body: '' };
      const current = Math.floor(clock.now().getTime() / period);
      let pulse = pulseAt(mode === 'stale' ? current - 3 : current);
      if (mode === 'bad-output-value') pulse = { ...pulse, outputValue: String(pulse.outputValue).slice(2) };
      if (mode === 'integrity-mismatch') pulse = { ...pulse, outputValue: hex(randomBytes(64)) };
      // Jackson's pretty printer, as beacon.nist.gov sends it: `"key" : value`, CRLF, no final newline.
      const body = JSON.stringify({ pulse }, null, 2).replace(/\n/g, '\r\n').replace(/": /g, '" : ');
      return { status: 200, body, contentType: 'application/json;charset=UTF-8' };
    },
  });
  base = fake.url;
  return Object.assign(fake, { period });
}

export const DRAND_MODES = [...COMMON_MODES, 'bad-signature', 'stuck'] as const;
export type DrandMode = 'ok' | (typeof DRAND_MODES)[number];
export interface FakeDrand extends FakeUpstream<DrandMode>, DrandChain {
  /** The chain's `/info` JSON: what DRAND_CHAIN takes for a chain other than quicknet. */
  readonly info: DrandChainInfo;
  /** Rounds from `round` on are not served (404, as for a future round) until released. */
  withhold(round: number | undefined): void;
  /** The signed beacon of a round, as the relay serves it. */
  beacon(round: number): { round: number; randomness: string; signature: string };
}

/**
 * A drand chain of its own (fresh BLS key pair, genesis an hour before `clock`) served like a
 * relay: `<url>/<chainHash>/public/latest`, `/public/<round>` for rounds that `clock` says exist
 * (404 for a future one, as relays answer), and `/info`. Pass its chain fields to the client, or
 * `info` as DRAND_CHAIN. `stuck` keeps serving the round that was current when the mode was set;
 * `bad-signature` signs the next round's message instead.
 */
export async function startFakeDrand(options: { clock: Clock; period?: number }): Promise<FakeDrand> {
  const { clock, period = 3 } = options;
  const sigs = bls12_381.shortSignatures;
  const { secretKey, publicKey } = sigs.keygen();
  const chain: DrandChain = {
    chainHash: randomBytes(32).toString('hex'),
    publicKey: publicKey.toHex(),
    genesis: Math.floor(clock.now().getTime() / 1000) - 3600,
    period,
  };
  const info: DrandChainInfo = {
    public_key: chain.publicKey,
    period,
    genesis_time: chain.genesis,
    hash: chain.chainHash,
    schemeID: 'bls-unchained-g1-rfc9380',
  };
  let stuckRound = 0;
  let withheldFrom: number | undefined;
  // BLS signing costs milliseconds: every signature is made once.
  const signed = new Map<number, Uint8Array>();

  const beacon = (round: number, signedRound: number) => {
    let signature = signed.get(signedRound);
    if (!signature) {
      signature = sigs.Signature.toBytes(
        sigs.sign(sigs.hash(drandRoundMessage(signedRound), DRAND_DST), secretKey),
      );
      signed.set(signedRound, signature);
    }
    const randomness = createHash('sha256').update(signature).digest('hex');
    return { round, randomness, signature: Buffer.from(signature).toString('hex') };
  };

  const fake = await startFakeServer<DrandMode>({
    basePath: '',
    onModeChange(mode) {
      if (mode === 'stuck') stuckRound = drandRoundAt(clock.now(), chain);
    },
    handle(req, mode) {
      const prefix = `/${chain.chainHash}/`;
      if (!req.path.startsWith(prefix)) return notFound;
      const rest = req.path.slice(prefix.length);
      if (rest === 'info') return json({ ...info, metadata: { beaconID: 'fake' } });
      const current = mode === 'stuck' ? stuckRound : drandRoundAt(clock.now(), chain);
      const newest = withheldFrom === undefined ? current : Math.min(current, withheldFrom - 1);
      let round: number;
      if (rest === 'public/latest') round = newest;
      else if (/^public\/[1-9][0-9]*$/.test(rest)) round = Number(rest.slice('public/'.length));
      else return notFound;
      if (round > newest || round < 1) return { status: 404, body: 'Requested future beacon' };
      // A real signature, but over the next round's message: only the BLS check can catch it.
      return json(beacon(round, mode === 'bad-signature' ? round + 1 : round));
    },
  });
  return Object.assign(fake, chain, {
    info,
    withhold(round: number | undefined) {
      withheldFrom = round;
    },
    beacon: (round: number) => beacon(round, round),
  });
}

export interface FakeUpstreams {
  anu: FakeUpstream<AnuMode>;
  nist: FakeNist;
  drand: FakeDrand;
  /** startTestApp options that point every source at these fakes, in the given cascade order. */
  appOptions(
    sources: string,
    budgetMs?: number,
  ): { config: Record<string, string>; randomness: RandomnessTuning };
  close(): Promise<void>;
}

/** The three external sources at once, on one clock, with the settings a Tyche app needs to use them. */
export async function startFakeUpstreams(clock: Clock): Promise<FakeUpstreams> {
  const [anu, nist, drand] = await Promise.all([
    startFakeAnu(),
    startFakeNist({ clock }),
    startFakeDrand({ clock }),
  ]);
  return {
    anu,
    nist,
    drand,
    appOptions: (sources, budgetMs = 1000) => ({
      config: {
        TYCHE_SOURCES: sources,
        TYCHE_TIME_BUDGET_MS: String(budgetMs),
        ANU_QRNG_URL: anu.url,
        NIST_BEACON_URL: nist.url,
        DRAND_URL: drand.url,
      },
      randomness: {
        fetchTimeoutMs: 300,
        anuMinIntervalMs: 0,
        drandChain: {
          chainHash: drand.chainHash,
          publicKey: drand.publicKey,
          genesis: drand.genesis,
          period: drand.period,
        },
      },
    }),
    close: async () => {
      await Promise.all([anu.close(), nist.close(), drand.close()]);
    },
  };
}
