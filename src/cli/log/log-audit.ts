import { createPublicKey, hash, verify as nodeVerify } from 'node:crypto';
import { certificateDigestProblem, isCertificateDigest } from '../../proof/certificate-entry.ts';
import { bytesEqual } from '../../proof/hex.ts';
import { entryIdOf, kindOf, type LogEntryKind, openKeyEntry, readLogEntry } from '../../proof/log-entry.ts';
import { leafHash, rootOfNodes } from '../../proof/merkle.ts';
import { isRecord } from '../../proof/report.ts';
import { type Ed25519Verify, objectHashProblem, objectSignatureProblem } from '../../proof/signed-object.ts';
import { createAmendmentTally } from './amendment-tally.ts';
import { createResultTally } from './result-tally.ts';

const sha256 = (data: Uint8Array) => hash('sha256', data, 'buffer') as unknown as Uint8Array;

/** node:crypto's Ed25519, about twenty times the pure-JS check: a whole log is many signatures. */
const keyObjects = new Map<string, ReturnType<typeof createPublicKey>>();
export const fastVerify: Ed25519Verify = (signature, message, publicKey) => {
  const x = Buffer.from(publicKey).toString('base64url');
  let key = keyObjects.get(x);
  if (!key) {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
    keyObjects.set(x, key);
  }
  return nodeVerify(null, message, key, signature);
};

export interface AuditEntry {
  index: number;
  /** The kind and id the log names the entry by; an entry bundle names neither, so they are read from the entry. */
  kind?: string;
  id?: string;
  leafData: Uint8Array;
}

export interface AuditFinding {
  /** `entry` a broken entry; `monitor` what the log shows and a monitor must report. */
  severity: 'entry' | 'monitor';
  index?: number;
  message: string;
}

/** What a seal shows a monitor comparing giveaways that wait for the same round. */
interface SealSighting {
  publicId: string;
  owner: string;
  root: unknown;
  count: unknown;
  title: unknown;
}

/** What two giveaways of different owners on one round must not share (a clone kept for its best outcome). */
const CLONE_SIGNS = [
  { name: 'entrant root', of: (s: SealSighting) => s.root },
  { name: 'entrant count', of: (s: SealSighting) => s.count },
  { name: 'title', of: (s: SealSighting) => s.title },
] as const;

interface KeyState {
  publicKey: Uint8Array;
  retired: boolean;
}

/**
 * Re-checks a log entry by entry, in order (CONTRACT §8 "tyche log verify", "Monitoring"): each
 * entry is canonical JSON of the kind and id the log names; key entries are signed by the log key;
 * every seal, certificate and result entry is hashed and signed by a key announced earlier in the
 * log and not retired before it; a v2 certificate draws from a seal the log holds. Alongside, it
 * tallies what a monitor reports: an owner sealing more than once on one round, a giveaway sealed
 * twice, giveaways of different owners on one round whose entrant roots, counts or titles coincide
 * — the trace of one list sealed under several accounts to keep whichever draw turns out best — and
 * an account whose signed results skip or repeat a number (result-tally.ts).
 */
export function createLogAuditor(logPublicKey: Uint8Array) {
  const leaves: Uint8Array[] = [];
  const keys = new Map<string, KeyState>();
  const sealHashes = new Map<string, string>();
  const sealsByGiveaway = new Map<string, string[]>();
  const sealsByOwnerRound = new Map<string, string[]>();
  const sealsByRound = new Map<string, SealSighting[]>();
  const findings: AuditFinding[] = [];
  const broken = (index: number, message: string) => findings.push({ severity: 'entry', index, message });
  const results = createResultTally();
  const amendments = createAmendmentTally(sha256);

  function packedLeaves(size: number): Uint8Array {
    const packed = new Uint8Array(size * 32);
    for (let i = 0; i < size; i++) packed.set(leaves[i], i * 32);
    return packed;
  }

  /** The key a signature names, announced earlier in the log and not retired, or why not. */
  function liveKey(signature: unknown): { kid: string; state: KeyState } | string {
    const sig = isRecord(signature) ? signature : {};
    const kid = typeof sig.kid === 'string' ? sig.kid : '';
    const state = keys.get(kid);
    if (!state) return `signed by key ${JSON.stringify(kid)}, which no earlier entry announces`;
    if (state.retired) return `signed by key ${kid}, retired earlier in the log`;
    return { kid, state };
  }

  function signedBy(obj: Record<string, unknown>): string | null {
    // A long certificate's digest holds its signature but not the bytes signed: the key rule is
    // checked here, the signature by whoever holds the certificate (proof/certificate-entry.ts).
    if (isCertificateDigest(obj)) {
      const key = liveKey(obj.certificate_signature);
      return certificateDigestProblem(obj) ?? (typeof key === 'string' ? key : null);
    }
    const key = liveKey(obj.signature);
    if (typeof key === 'string') return key;
    const { kid, state } = key;
    const doc = {
      keys: [{ kty: 'OKP', crv: 'Ed25519', kid, x: Buffer.from(state.publicKey).toString('base64url') }],
    };
    return objectHashProblem(obj, sha256) ?? objectSignatureProblem(obj, doc, fastVerify);
  }

  function keyEntry(index: number, obj: Record<string, unknown>): void {
    const opened = openKeyEntry(obj, logPublicKey, sha256, fastVerify);
    if (!opened.ok) return void broken(index, `key entry: ${opened.problem}`);
    const { key } = opened;
    const known = keys.get(key.kid);
    if (known && !bytesEqual(known.publicKey, key.publicKey)) {
      return void broken(index, `key entry: ${key.kid} is announced again with another public key`);
    }
    keys.set(key.kid, { publicKey: key.publicKey, retired: key.retiredAt !== undefined });
  }

  function sealEntry(obj: Record<string, unknown>): void {
    const giveaway = isRecord(obj.giveaway) ? obj.giveaway : {};
    const beacon = isRecord(obj.beacon) ? obj.beacon : {};
    const publicId = String(giveaway.public_id);
    sealHashes.set(String(obj.seal_id), String(obj.hash));
    sealsByGiveaway.set(publicId, [...(sealsByGiveaway.get(publicId) ?? []), String(obj.seal_id)]);
    const ownerRound = `${String(giveaway.owner)} ${String(beacon.round)}`;
    sealsByOwnerRound.set(ownerRound, [...(sealsByOwnerRound.get(ownerRound) ?? []), publicId]);
    const entrants = isRecord(obj.entrants) ? obj.entrants : {};
    const round = String(beacon.round);
    const sighting: SealSighting = {
      publicId,
      owner: String(giveaway.owner),
      root: entrants.root,
      count: entrants.count,
      title: giveaway.title,
    };
    sealsByRound.set(round, [...(sealsByRound.get(round) ?? []), sighting]);
  }

  /** Giveaways of more than one owner on one round that share a root, a count or a title. */
  function clonesAcrossOwners(): AuditFinding[] {
    const found: AuditFinding[] = [];
    for (const [round, sightings] of sealsByRound) {
      for (const sign of CLONE_SIGNS) {
        const groups = new Map<string, SealSighting[]>();
        for (const s of sightings) {
          const value = sign.of(s);
          if (value === undefined || value === null) continue;
          const key = JSON.stringify(value);
          groups.set(key, [...(groups.get(key) ?? []), s]);
        }
        for (const [value, group] of groups) {
          if (new Set(group.map((s) => s.owner)).size < 2) continue;
          const named = group.map((s) => `${s.publicId} (owner ${s.owner})`).join(', ');
          found.push({
            severity: 'monitor',
            message: `giveaways of different owners on drand round ${round} share their ${sign.name} ${value}: ${named}`,
          });
        }
      }
    }
    return found;
  }

  return {
    /** Checks the next entry; entries must come in index order with no gap. */
    add(served: AuditEntry): void {
      // The tree is built from what was served, in order; an entry labelled with another index
      // is reported where it stands and still checked, so one bad label does not hide the rest.
      const position = leaves.length;
      if (served.index !== position) broken(position, `entry ${position} is served as index ${served.index}`);
      leaves.push(leafHash(served.leafData, sha256));
      const read = readLogEntry(served.leafData, served.kind, served.id);
      if (!read.ok) {
        broken(position, read.problem);
        return;
      }
      const obj = read.object;
      // readLogEntry found it to be of a known kind, and of the one the log names, if it names one.
      const kind = kindOf(obj) as LogEntryKind;
      const entry = { index: position, kind, id: String(entryIdOf(obj, kind)) };
      if (entry.kind === 'key') {
        keyEntry(entry.index, obj);
        return;
      }
      const problem = signedBy(obj);
      if (problem) broken(entry.index, `${entry.kind} ${entry.id}: ${problem}`);
      // Only a result the operator's key really signed counts; a forged one fills no gap.
      const uncounted = entry.kind === 'result' && !problem ? results.add(entry.index, obj) : null;
      if (uncounted) broken(entry.index, `result ${entry.id}: ${uncounted}`);
      if (entry.kind === 'seal') sealEntry(obj);
      if (entry.kind === 'certificate' && !problem) amendments.certificate(obj);
      if (entry.kind === 'amendment') amendments.amendment(entry.index, obj);
      if (entry.kind === 'certificate' && isRecord(obj.seal)) {
        const sealId = String(obj.seal.seal_id);
        if (sealHashes.get(sealId) !== obj.seal.hash) {
          broken(
            entry.index,
            `certificate ${entry.id} draws from seal ${sealId}, which the log does not hold as such`,
          );
        }
      }
    },

    size: () => leaves.length,

    /** One account's signed results, by its pseudonym, in log order. */
    resultsOf: results.of,

    /** The leaf hashes of the first `size` entries seen, packed: what the tiles of that size are made of. */
    leafHashes: packedLeaves,

    /** RFC 9162 root of the first `size` entries seen. */
    rootAt(size: number): Uint8Array {
      return rootOfNodes(packedLeaves(size), size, sha256);
    },

    /** Every finding, entries first in log order, then what monitoring shows. */
    findings(): AuditFinding[] {
      const monitor: AuditFinding[] = [];
      for (const [publicId, seals] of sealsByGiveaway) {
        if (seals.length > 1) {
          monitor.push({
            severity: 'monitor',
            message: `giveaway ${publicId} has ${seals.length} seals: ${seals.join(', ')}`,
          });
        }
      }
      for (const [ownerRound, ids] of sealsByOwnerRound) {
        const [owner, round] = ownerRound.split(' ');
        if (ids.length > 1) {
          monitor.push({
            severity: 'monitor',
            message: `owner ${owner} sealed ${ids.length} giveaways on drand round ${round}: ${ids.join(', ')}`,
          });
        }
      }
      const counted = results.findings().map((message): AuditFinding => ({ severity: 'monitor', message }));
      const amended = amendments
        .findings()
        .map((message): AuditFinding => ({ severity: 'monitor', message }));
      return [...findings, ...monitor, ...clonesAcrossOwners(), ...counted, ...amended];
    },
  };
}

export type LogAuditor = ReturnType<typeof createLogAuditor>;
