import type { Kysely, Selectable } from 'kysely';
import type { LogEntriesTable } from '../store/log-schema.ts';
import type { Database } from '../store/schema.ts';
import type { NodeKey, StoredNode } from './tree-shape.ts';

export interface LogHead {
  size: number;
  root: Uint8Array;
}

export interface LogEntryRow {
  index: number;
  kind: string;
  id: string;
  leafData: Uint8Array;
  leafHash: Uint8Array;
  createdAt: number;
}

/** Node buffers (pg's) and SQLite's arrays alike, as plain bytes. */
const bytes = (value: Uint8Array): Uint8Array => new Uint8Array(value);

/** A stored `log_entries` row as the log speaks of it. */
export const logEntryOf = (row: Selectable<LogEntriesTable>): LogEntryRow => ({
  index: Number(row.idx),
  kind: row.kind,
  id: row.ref_id,
  leafData: bytes(row.leaf_data),
  leafHash: bytes(row.leaf_hash),
  createdAt: Number(row.created_at),
});

export function createLogRepository(db: Kysely<Database>) {
  return {
    /** Whether this repository runs inside a transaction, as an append must. */
    inTransaction: db.isTransaction,

    /** The log key's seed (migration 008 makes it), or undefined before that migration. */
    async keySeed(): Promise<string | undefined> {
      const row = await db.selectFrom('log_key').select('seed').where('id', '=', 1).executeTakeFirst();
      return row?.seed;
    },

    /**
     * The head, held by this transaction until it ends. An update (of nothing) rather than a
     * read, because only a write waits its turn on both engines: PostgreSQL locks the row and
     * a second appender waits for the first to end, then sees its head; SQLite's one writer
     * lock is taken by a transaction's first write, and one that read first and then found a
     * newer commit would fail instead of waiting.
     */
    async takeHead(): Promise<LogHead> {
      const row = await db
        .updateTable('log_head')
        .set((eb) => ({ size: eb.ref('size') }))
        .where('id', '=', 1)
        .returning(['size', 'root'])
        .executeTakeFirstOrThrow();
      return { size: Number(row.size), root: bytes(row.root) };
    },

    async readHead(): Promise<LogHead> {
      const row = await db
        .selectFrom('log_head')
        .select(['size', 'root'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return { size: Number(row.size), root: bytes(row.root) };
    },

    /** The head after an append, only if it still is the one this transaction took. */
    async moveHead(from: number, to: LogHead): Promise<void> {
      const result = await db
        .updateTable('log_head')
        .set({ size: to.size, root: to.root })
        .where('id', '=', 1)
        .where('size', '=', from)
        .executeTakeFirst();
      if (result.numUpdatedRows !== 1n) throw new Error(`the log head moved from ${from} during an append`);
    },

    /** The stored subtrees among `keys`, in any order; one statement whatever their number. */
    async nodes(keys: readonly NodeKey[]): Promise<StoredNode[]> {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('log_nodes')
        .select(['level', 'idx', 'hash'])
        .where((eb) => eb.or(keys.map((k) => eb.and([eb('level', '=', k.level), eb('idx', '=', k.index)]))))
        .execute();
      return rows.map((r) => ({ level: Number(r.level), index: Number(r.idx), hash: bytes(r.hash) }));
    },

    async insertEntry(entry: LogEntryRow): Promise<void> {
      await db
        .insertInto('log_entries')
        .values({
          idx: entry.index,
          kind: entry.kind,
          ref_id: entry.id,
          leaf_data: entry.leafData,
          leaf_hash: entry.leafHash,
          created_at: entry.createdAt,
        })
        .execute();
    },

    async insertNodes(nodes: readonly StoredNode[]): Promise<void> {
      await db
        .insertInto('log_nodes')
        .values(nodes.map((n) => ({ level: n.level, idx: n.index, hash: n.hash })))
        .execute();
    },

    /** Entries [start, end), in order. */
    async entries(start: number, end: number): Promise<LogEntryRow[]> {
      const rows = await db
        .selectFrom('log_entries')
        .selectAll()
        .where('idx', '>=', start)
        .where('idx', '<', end)
        .orderBy('idx')
        .execute();
      return rows.map(logEntryOf);
    },

    /** The stored subtree hashes of one level, indices [from, to), in order: one hash tile's worth. */
    async levelHashes(level: number, from: number, to: number): Promise<Uint8Array[]> {
      const rows = await db
        .selectFrom('log_nodes')
        .select('hash')
        .where('level', '=', level)
        .where('idx', '>=', from)
        .where('idx', '<', to)
        .orderBy('idx')
        .execute();
      return rows.map((r) => bytes(r.hash));
    },

    /** The leaf data of entries [start, end), in order: one entry bundle's worth. */
    async leafData(start: number, end: number): Promise<Uint8Array[]> {
      const rows = await db
        .selectFrom('log_entries')
        .select('leaf_data')
        .where('idx', '>=', start)
        .where('idx', '<', end)
        .orderBy('idx')
        .execute();
      return rows.map((r) => bytes(r.leaf_data));
    },

    /** Indices of the entries about one object, oldest first (a key has its announcement and retirement). */
    async indicesOf(kind: string, id: string): Promise<number[]> {
      const rows = await db
        .selectFrom('log_entries')
        .select('idx')
        .where('ref_id', '=', id)
        .where('kind', '=', kind)
        .orderBy('idx')
        .execute();
      return rows.map((r) => Number(r.idx));
    },
  };
}

export type LogRepository = ReturnType<typeof createLogRepository>;
