import { createHash } from 'node:crypto';
import { seedOf } from '../../src/log/log-key.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { toHex } from '../../src/proof/hex.ts';
import { keyEntryBody, leafDataOf } from '../../src/proof/log-entry.ts';
import type { KeyEntryEvidence, LogEvidence } from '../../src/proof/log-evidence.ts';
import { inclusionProofFromLeaves, leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import { consistencyProofFromLeaves } from '../../src/proof/merkle-proofs.ts';
import { verifierKey } from '../../src/proof/note.ts';
import { createSigningKey, type SigningKey, sealCertificate } from '../../src/signing/certificate-crypto.ts';

export const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/**
 * A transparency log in memory, built with the proof core's own tree functions and signed with a
 * real log key (its own, or one given: a fork by the log's holder): checkpoints, inclusion and
 * consistency proofs at any size it has reached.
 */
export function logWorld(origin = 'tyche.test/log', logKey: SigningKey = createSigningKey()) {
  const seed = seedOf(logKey);
  const leaves: Uint8Array[] = [];
  const packed = (size: number) => {
    const out = new Uint8Array(size * 32);
    for (let i = 0; i < size; i++) out.set(leafHash(leaves[i], sha256), i * 32);
    return out;
  };
  const world = {
    origin,
    logKey,
    vkey: verifierKey(origin, logKey.publicKeyRaw),
    leaves,
    get size() {
      return leaves.length;
    },
    /** Appends a signed object's canonical bytes; returns its index. */
    append(signed: object): number {
      leaves.push(leafDataOf(signed));
      return leaves.length - 1;
    },
    announce(key: SigningKey, retiredAt?: string): number {
      const body = keyEntryBody({
        kid: key.kid,
        publicKey: key.publicKeyRaw,
        createdAt: '2026-01-01T00:00:00.000Z',
        retiredAt,
      });
      return world.append(sealCertificate(body, logKey));
    },
    checkpoint(size = leaves.length, signWith = seed): string {
      return signCheckpoint({ origin, size, root: rootOfNodes(packed(size), size, sha256) }, signWith);
    },
    inclusion(index: number, size = leaves.length): string[] {
      return inclusionProofFromLeaves(packed(size), size, index, sha256).map(toHex);
    },
    consistency(first: number, second = leaves.length): string[] {
      return consistencyProofFromLeaves(packed(second), first, second, sha256).map(toHex);
    },
  };
  return world;
}

/** A seal-shaped signed object (only what the log checks read), with its drand round time; `extra` makes another of the same id. */
export function sealBy(
  key: SigningKey,
  id: string,
  roundAt: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return sealCertificate<Record<string, unknown>>(
    {
      type: 'tyche-seal-v2',
      seal_id: id,
      giveaway: { public_id: id },
      beacon: { round_at: roundAt },
      ...extra,
    },
    key,
  );
}

export function certificateBy(key: SigningKey, id: string): Record<string, unknown> {
  return sealCertificate<Record<string, unknown>>(
    { algorithm: 'tyche-draw-v2', certificate_id: id, seed: '00'.repeat(32) },
    key,
  );
}

export const SCENE_ROUND_AT = '2026-11-23T12:00:00.000Z';

/** A log of: key K announced, a seal and a certificate by K, key K retired, a late certificate by K. */
export function scene() {
  const w = logWorld();
  const k = createSigningKey();
  const announced = w.announce(k);
  const seal = sealBy(k, 's_1', SCENE_ROUND_AT);
  const sealIndex = w.append(seal);
  const cert = certificateBy(k, 'c_1');
  const certIndex = w.append(cert);
  const retired = w.announce(k, '2026-06-01T00:00:00.000Z');
  const late = certificateBy(k, 'c_late');
  const lateIndex = w.append(late);
  const keyEntries = (size = w.size): KeyEntryEvidence[] =>
    [announced, retired].map((index) => ({
      index,
      leafData: w.leaves[index],
      proof: w.inclusion(index, size),
    }));
  const evidence = (over: Partial<LogEvidence> = {}): LogEvidence => ({
    logKey: w.vkey,
    keySource: { code: 'pinned-earlier' },
    checkpoint: w.checkpoint(),
    objects: [
      { what: 'seal', object: seal, index: sealIndex, proof: w.inclusion(sealIndex) },
      { what: 'certificate', object: cert, index: certIndex, proof: w.inclusion(certIndex) },
    ],
    keyEntries: { [k.kid]: keyEntries() },
    sha256,
    ...over,
  });
  return { w, k, seal, sealIndex, cert, certIndex, late, lateIndex, keyEntries, evidence };
}
