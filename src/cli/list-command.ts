import type { ParseArgsConfig } from 'node:util';
import type { Services } from '../services.ts';
import type { Store } from '../store/store.ts';
import type { Command } from './command.ts';
import { withServices } from './store-session.ts';

/** A column of the table: its heading and what a row shows in it. */
type ListColumn<T> = [heading: string, cell: (row: T) => unknown];

interface ListSpec<T, Q> {
  name: string;
  summary: string;
  /** Filters besides --json: their parse options and how the usage line shows them. */
  filters?: { options: ParseArgsConfig['options']; usage: string };
  /** Reads the filters before the store is opened, so a bad one is refused without touching it. */
  parse?: (values: Record<string, string | boolean | undefined>) => Q;
  list: (services: Services, query: Q, store: Store) => Promise<T[]>;
  columns: ListColumn<T>[];
  /** What --json prints of each row (default: the row as it is). */
  json?: (row: T) => unknown;
  /** Said on stderr instead of an empty table (default: the headings alone). */
  empty?: string;
}

/**
 * `tyche <group> list [filters] [--json]`: one JSON array, or a tab-separated table with a
 * heading line that `cut` and spreadsheets read.
 */
export function listCommand<T, Q = undefined>(spec: ListSpec<T, Q>): Command {
  return {
    name: spec.name,
    usage: `${spec.name}${spec.filters ? ` ${spec.filters.usage}` : ''} [--json]`,
    summary: spec.summary,
    options: { ...spec.filters?.options, json: { type: 'boolean' } },
    async run({ values }, io) {
      const query = spec.parse?.(values) as Q;
      const rows = await withServices(io.env, (services, store) => spec.list(services, query, store));
      if (values.json) {
        io.out(JSON.stringify(spec.json ? rows.map(spec.json) : rows));
        return 0;
      }
      if (rows.length === 0 && spec.empty !== undefined) {
        io.err(spec.empty);
        return 0;
      }
      io.out(spec.columns.map(([heading]) => heading).join('\t'));
      // join, not String: a null or missing cell is an empty field.
      for (const row of rows) io.out(spec.columns.map(([, cell]) => cell(row)).join('\t'));
      return 0;
    },
  };
}
