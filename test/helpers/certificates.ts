import { readFileSync } from 'node:fs';
import type { Certificate, CertificateBody } from '../../src/giveaways/draw/certificate.ts';
import { sha256 } from '../../src/giveaways/draw/certificate.ts';
import { beaconR, runDraw, toHex } from '../../src/proof/draw-v1.ts';
import {
  createSigningKey,
  publicJwk,
  type SigningKey,
  sealCertificate,
} from '../../src/signing/certificate-crypto.ts';

export interface Sample {
  certificate: Certificate;
  keys: { keys: object[] };
  participantIds: number[];
  key: SigningKey;
}

interface Vector {
  name: string;
  participants: number[];
  winners_count: number;
  randomness: { source: string; bytes: string; beacon_value?: string; system_entropy?: string };
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/draw-v1-vectors.json', import.meta.url), 'utf8'),
);
export const VECTORS = new Map<string, Vector>((fixture.vectors as Vector[]).map((v) => [v.name, v]));

/** A certificate sealed with a fresh key, drawn exactly as the service draws (vector inputs). */
export function sampleCertificate(
  options: {
    vector?: string;
    title?: string;
    usernames?: (id: number) => string | null;
    key?: SigningKey;
    /** A real beacon value instead of the vector's randomness (R is then recomputed). */
    beacon?: { source: 'nist' | 'drand'; value: string; reference: string };
  } = {},
): Sample {
  const v = VECTORS.get(options.vector ?? 'ten-participants')!;
  const randomness = options.beacon ? beaconRandomness(options.beacon) : v.randomness;
  const result = runDraw({
    participantIds: v.participants,
    winnersCount: v.winners_count,
    randomness: Buffer.from(randomness.bytes, 'hex'),
    sha256,
  });
  const body: CertificateBody = {
    certificate_id: `c_${v.name.replace(/-/g, '')}`.slice(0, 18),
    algorithm: 'tyche-draw-v1',
    public_id: 'g_7HkQ2xN4ab',
    title: options.title ?? `Vector ${v.name}`,
    winners_count: v.winners_count,
    participants_count: result.participantsCount,
    participants_hash: result.participantsHash,
    randomness: {
      source: randomness.source as CertificateBody['randomness']['source'],
      request_id: '5f0c2a8e-1b7d-4c3e-9a6f-2d8b4e1c7a90',
      bytes: randomness.bytes,
      source_reference:
        options.beacon?.reference ??
        (randomness.source === 'nist'
          ? 'https://beacon.nist.gov/beacon/2.0/chain/2/pulse/1234567'
          : randomness.source === 'drand'
            ? '4242424'
            : `${randomness.source}:batch-1`),
      obtained_at: '2025-06-01T12:00:00.000Z',
      ...(randomness.beacon_value
        ? { beacon_value: randomness.beacon_value, system_entropy: randomness.system_entropy }
        : {}),
    },
    seed: result.seed,
    winners: result.winners.map((w) => ({
      ...w,
      username: options.usernames ? options.usernames(w.telegram_id) : `user${w.telegram_id}`,
    })),
    drawn_at: '2025-06-01T12:00:00.123Z',
  };
  const key = options.key ?? createSigningKey();
  return {
    certificate: sealCertificate(body, key),
    keys: { keys: [publicJwk(key)] },
    participantIds: v.participants,
    key,
  };
}

function beaconRandomness(beacon: { source: string; value: string }): Vector['randomness'] {
  const entropy = '5a'.repeat(32);
  const r = beaconR(Buffer.from(beacon.value, 'hex'), Buffer.from(entropy, 'hex'), sha256);
  return { source: beacon.source, bytes: toHex(r), beacon_value: beacon.value, system_entropy: entropy };
}

/** A deep copy with one change applied, optionally re-sealed (as a forger with some key would). */
export function tampered(
  cert: Certificate,
  change: (c: Certificate) => void,
  resealWith?: SigningKey,
): Certificate {
  const copy = structuredClone(cert);
  change(copy);
  if (!resealWith) return copy;
  const { hash: _h, signature: _s, ...body } = copy;
  return sealCertificate(body, resealWith);
}
