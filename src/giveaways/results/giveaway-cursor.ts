import { AppError } from '../../shared/errors.ts';
import type { GiveawayRepository, GiveawayStatus } from '../core/giveaway.repository.ts';
import { type GiveawaySummary, summaryOf } from './giveaway.views.ts';

const CURSOR = /^g1\.([1-9][0-9]{0,15})$/;
/** List pages go by id, newest first: the cursor names the last id shown. */
export const encodeListCursor = (id: number) => Buffer.from(`g1.${id}`).toString('base64url');

export function decodeListCursor(cursor: string): number {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    throw new AppError('invalid_parameter', 'cursor is not one this API issued', {
      errors: [{ parameter: 'cursor', message: 'must be a next_cursor value from a previous page' }],
    });
  }
  return id;
}

export interface ListQuery {
  status?: GiveawayStatus | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface ListPage {
  giveaways: GiveawaySummary[];
  total: number;
  next_cursor: string | null;
}

/** One page of an account's giveaways, newest first, with the total and the next page's cursor. */
export async function listPage(
  giveaways: Pick<GiveawayRepository, 'list' | 'count'>,
  accountId: string,
  query: ListQuery,
): Promise<ListPage> {
  const beforeId = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
  const filter = { accountId, status: query.status };
  // One row more than the page tells whether another page follows.
  const rows = await giveaways.list({ ...filter, beforeId, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  return {
    giveaways: page.map(summaryOf),
    total: await giveaways.count(filter),
    next_cursor: more ? encodeListCursor(page[page.length - 1].id) : null,
  };
}
