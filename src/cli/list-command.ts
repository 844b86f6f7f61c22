import type { Services } from '../services.ts';
import type { Command } from './command.ts';
import { withServices } from './store-session.ts';

/** A column of the table: its heading and what a row shows in it. */
type ListColumn<T> = [heading: string, cell: (row: T) => unknown];

interface ListSpec<T> {
  name: string;
  summary: string;
  list: (services: Services) => Promise<T[]>;
  columns: ListColumn<T>[];
  /** What --json prints of each row (default: the row as it is). */
  json?: (row: T) => unknown;
  /** Said on stderr instead of an empty table (default: the headings alone). */
  empty?: string;
}

/**
 * `tyche <group> list [--json]`: one JSON array, or a tab-separated table with a heading line
 * that `cut` and spreadsheets read.
 */
export function listCommand<T>(spec: ListSpec<T>): Command {
  return {
    name: spec.name,
    usage: `${spec.name} [--json]`,
    summary: spec.summary,
    options: { json: { type: 'boolean' } },
    async run({ values }, io) {
      const rows = await withServices(io.env, spec.list);
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
