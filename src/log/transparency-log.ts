import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Sha256 } from '../proof/digest.ts';
import { LOG_ENTRY_KINDS, type LogEntryKind } from '../proof/log-entry.ts';
import { leafHash } from '../proof/merkle.ts';
import { consistencyProofFrom, inclusionProofFrom, type RangeHash } from '../proof/merkle-proofs.ts';
import type { Database } from '../store/schema.ts';
import { createLogRepository, type LogEntryRow, type LogRepository } from './log.repository.ts';
import { appendToFrontier, foldSubtrees, type NodeKey, nodeName, rangeNodes } from './tree-shape.ts';

const sha256: Sha256 = (data) => hash('sha256', data, 'buffer');
const EMPTY_ROOT = sha256(new Uint8Array(0));
const PLACEHOLDER = new Uint8Array(32);

/** Most entries one read returns (CONTRACT §8: `/log/entries` gives at most 1000 a call). */
export const MAX_ENTRIES_PER_READ = 1000;

const KINDS: ReadonlySet<string> = new Set(LOG_ENTRY_KINDS);

export interface NewLogEntry {
  kind: LogEntryKind;
  /** The seal, certificate or key id the entry is about, or a result's serial. */
  id: string;
  /** The RFC 8785 bytes of the signed object, exactly as published. */
  leafData: Uint8Array;
  /** Epoch milliseconds; the wall clock unless the caller has its own. */
  createdAt?: number;
}

export interface Appended {
  index: number;
  /** The log's size with this entry: index + 1. */
  size: number;
  root: Uint8Array;
}

export type LogEntry = LogEntryRow;

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer`);
}

function checkWithin(name: string, value: number, size: number): void {
  checkCount(name, value);
  if (value > size) throw new RangeError(`${name} ${value} is beyond the log size ${size}`);
}

/**
 * Runs a proof recursion twice: once to learn which stored subtrees its ranges need, then, after
 * reading them all in one statement, for real. A proof of a tree of n leaves reads about 2·log2(n)
 * rows whatever n is.
 */
async function fromStoredRanges<T>(log: LogRepository, build: (rangeHash: RangeHash) => T): Promise<T> {
  const wanted = new Map<string, NodeKey>();
  build((start, end) => {
    for (const key of rangeNodes(start, end)) wanted.set(nodeName(key), key);
    return PLACEHOLDER;
  });
  const stored = new Map<string, Uint8Array>();
  for (const node of await log.nodes([...wanted.values()])) stored.set(nodeName(node), node.hash);
  return build((start, end) =>
    foldSubtrees(
      rangeNodes(start, end).map((key) => {
        const found = stored.get(nodeName(key));
        if (!found) throw new Error(`the log's subtree ${nodeName(key)} is missing`);
        return found;
      }),
      sha256,
    ),
  );
}

/**
 * The append-only log of CONTRACT §8. Appends run inside the caller's transaction (the one that
 * stores the seal or certificate), so an entry exists exactly when what it logs does; reads use
 * `db` and read only committed entries.
 */
export function createTransparencyLog(deps: { db: Kysely<Database> }) {
  const reader = createLogRepository(deps.db);

  async function rootOf(log: LogRepository, size: number): Promise<Uint8Array> {
    if (size === 0) return EMPTY_ROOT;
    return fromStoredRanges(log, (rangeHash) => rangeHash(0, size));
  }

  /** The current size, after checking `sizes` against it. */
  async function sizeFor(...sizes: [string, number][]): Promise<number> {
    for (const [name, value] of sizes) checkCount(name, value);
    const { size } = await reader.readHead();
    for (const [name, value] of sizes) checkWithin(name, value, size);
    return size;
  }

  return {
    /**
     * Appends one entry as the next index and moves the head, inside the caller's transaction
     * (a Kysely transaction, or a log repository bound to one). The head row is taken first, so
     * appenders in every process queue on it: indices follow commits with no gap and no fork, and
     * a rollback takes the entry, its subtrees and the head change with it.
     */
    async append(trx: Kysely<Database> | LogRepository, entry: NewLogEntry): Promise<Appended> {
      const log = 'takeHead' in trx ? trx : createLogRepository(trx);
      if (!log.inTransaction) throw new TypeError("a log append runs inside the caller's transaction");
      if (!KINDS.has(entry.kind))
        throw new TypeError(`a log entry's kind is one of ${[...KINDS].join(', ')}`);
      if (typeof entry.id !== 'string' || entry.id === '') throw new TypeError('a log entry needs an id');
      if (!(entry.leafData instanceof Uint8Array)) throw new TypeError('leafData must be bytes');

      const head = await log.takeHead();
      const frontierKeys = rangeNodes(0, head.size);
      const found = new Map((await log.nodes(frontierKeys)).map((n) => [nodeName(n), n.hash]));
      const frontier = frontierKeys.map((key) => {
        const hash = found.get(nodeName(key));
        if (!hash) throw new Error(`the log's subtree ${nodeName(key)} is missing`);
        return hash;
      });
      const leaf = leafHash(entry.leafData, sha256);
      const { nodes, root } = appendToFrontier(head.size, frontier, leaf, sha256);
      await log.insertEntry({
        index: head.size,
        kind: entry.kind,
        id: entry.id,
        leafData: entry.leafData,
        leafHash: leaf,
        createdAt: entry.createdAt ?? Date.now(),
      });
      await log.insertNodes(nodes);
      await log.moveHead(head.size, { size: head.size + 1, root });
      return { index: head.size, size: head.size + 1, root };
    },

    async size(): Promise<number> {
      return (await reader.readHead()).size;
    },

    /** The newest size and root, read together. */
    async head(): Promise<{ size: number; root: Uint8Array }> {
      return reader.readHead();
    },

    /** The root the log had at `size` (0 ≤ size ≤ the current size). */
    async root(size: number): Promise<Uint8Array> {
      checkCount('size', size);
      const head = await reader.readHead();
      checkWithin('size', size, head.size);
      return size === head.size ? head.root : rootOf(reader, size);
    },

    /** Entries [start, end): start ≤ end ≤ the current size, at most MAX_ENTRIES_PER_READ. */
    async entries(start: number, end: number): Promise<LogEntry[]> {
      await sizeFor(['start', start], ['end', end]);
      if (end < start) throw new RangeError(`end ${end} is before start ${start}`);
      if (end - start > MAX_ENTRIES_PER_READ) {
        throw new RangeError(`at most ${MAX_ENTRIES_PER_READ} entries a read, not ${end - start}`);
      }
      const rows = await reader.entries(start, end);
      if (rows.length !== end - start) throw new Error(`the log is missing entries in [${start}, ${end})`);
      return rows;
    },

    /** RFC 9162 PATH(index, D[size]), leaf to root: 0 ≤ index < size ≤ the current size. */
    async inclusionProof(index: number, size: number): Promise<Uint8Array[]> {
      await sizeFor(['index', index], ['size', size]);
      if (index >= size) throw new RangeError(`index ${index} is not below size ${size}`);
      return fromStoredRanges(reader, (rangeHash) => inclusionProofFrom(index, size, rangeHash));
    },

    /**
     * RFC 9162 PROOF(first, D[second]): 0 ≤ first ≤ second ≤ the current size. Empty when
     * first is 0 or equals second (what c2sp.org/tlog-witness expects for a log it has not seen).
     */
    async consistencyProof(first: number, second: number): Promise<Uint8Array[]> {
      await sizeFor(['first', first], ['second', second]);
      if (first > second) throw new RangeError(`first ${first} is after second ${second}`);
      return fromStoredRanges(reader, (rangeHash) => consistencyProofFrom(first, second, rangeHash));
    },

    /** The indices of the entries about one seal, certificate or key, oldest first. */
    async indicesOf(kind: LogEntryKind, id: string): Promise<number[]> {
      return reader.indicesOf(kind, id);
    },
  };
}

export type TransparencyLog = ReturnType<typeof createTransparencyLog>;
