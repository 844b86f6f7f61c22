import { AppError } from '../errors.ts';

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
