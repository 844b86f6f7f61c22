import { createHash } from 'node:crypto';
import { beaconProblem } from '../../proof/drand.ts';
import type { DrandChainInfo } from '../../proof/v2-types.ts';
import { SourceError } from '../source.ts';
import { fetchSourceJson, type HttpSourceOptions, readFields } from './http-json.ts';

export const DRAND_URL = 'https://api.drand.sh';

/** A drand round whose BLS signature verified under the chain, in hex as relays serve it. */
export interface VerifiedRound {
  round: number;
  randomness: string;
  signature: string;
}

export interface DrandClient {
  readonly chain: Readonly<DrandChainInfo>;
  /** The newest round the relay serves, verified; throws SourceError when it cannot be had. */
  latest(signal?: AbortSignal): Promise<VerifiedRound>;
  /** Round `n`, verified; undefined while it is not published yet. Throws on a bad signature. */
  round(n: number): Promise<VerifiedRound | undefined>;
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A relay's JSON for one round, read strictly: the round and its two hex fields, nothing checked yet. */
export function readRound(body: unknown): VerifiedRound {
  const fields = readFields('drand', body, 'body');
  return {
    round: fields.int('round', 1),
    randomness: hex(fields.hex('randomness', 32)),
    signature: hex(fields.hex('signature', 48)),
  };
}

/** Throws a SourceError unless `beacon` is round `beacon.round` of `chain` (proof/drand.ts decides). */
export function checkRound(chain: DrandChainInfo, beacon: VerifiedRound): void {
  const problem = beaconProblem(chain, beacon, sha256);
  if (problem !== null) throw new SourceError('drand', `round ${beacon.round} rejected: ${problem}`);
}

/**
 * The one drand client: fetches a round from a relay, reads it and verifies it under the
 * chain. The randomness source asks it for the newest round; verifiable draws ask it for the
 * round they committed to, and wait for it whatever happens to the relay.
 */
export function createDrandClient(
  options: Partial<HttpSourceOptions> & { url: string; chain: Readonly<DrandChainInfo> },
): DrandClient {
  const { chain, timeoutMs = 5000 } = options;
  const base = `${options.url.replace(/\/+$/, '')}/${chain.hash}/public/`;

  async function get(path: string, signal?: AbortSignal): Promise<VerifiedRound> {
    const body = await fetchSourceJson(
      { ...options, timeoutMs },
      { source: 'drand', url: base + path, signal },
    );
    const beacon = readRound(body);
    checkRound(chain, beacon);
    return beacon;
  }

  return {
    chain,
    latest: (signal) => get('latest', signal),
    async round(n) {
      try {
        const beacon = await get(String(n));
        if (beacon.round !== n) throw new SourceError('drand', `asked for round ${n}, got ${beacon.round}`);
        return beacon;
      } catch (error) {
        // Relays answer a future round with 404 (or 425 Too Early); that is "not yet", not a failure.
        if (error instanceof SourceError && /^HTTP (404|425)\b/.test(error.message.replace(/^drand: /, ''))) {
          return undefined;
        }
        throw error;
      }
    },
  };
}
