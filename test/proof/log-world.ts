import { createHash } from 'node:crypto';
import { seedOf } from '../../src/log/log-key.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { toHex } from '../../src/proof/hex.ts';
import { keyEntryBody, leafDataOf } from '../../src/proof/log-entry.ts';
import { inclusionProofFromLeaves, leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import { consistencyProofFromLeaves } from '../../src/proof/merkle-proofs.ts';
import { verifierKey } from '../../src/proof/note.ts';
import { createSigningKey, type SigningKey, sealCertificate } from '../../src/signing/certificate-crypto.ts';

export const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/**
 * A transparency log in memory, built with the proof core's own tree functions and signed with a
 * real log key: checkpoints, inclusion and consistency proofs at any size it has reached.
 */
export function logWorld(origin = 'tyche.test/log') {
  const logKey = createSigningKey();
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

/** A seal-shaped signed object (only what the log checks read), with its drand round time. */
export function sealBy(key: SigningKey, id: string, roundAt: string): Record<string, unknown> {
  return sealCertificate<Record<string, unknown>>(
    { type: 'tyche-seal-v2', seal_id: id, giveaway: { public_id: id }, beacon: { round_at: roundAt } },
    key,
  );
}

export function certificateBy(key: SigningKey, id: string): Record<string, unknown> {
  return sealCertificate<Record<string, unknown>>(
    { algorithm: 'tyche-draw-v2', certificate_id: id, seed: '00'.repeat(32) },
    key,
  );
}
