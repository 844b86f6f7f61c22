import { randomUUIDv7 } from 'node:crypto';

/**
 * Operation ids of one request, derived from its base id: the base is a time-ordered UUID whose
 * last byte is zero, and the operation at index i is the base with i in that byte. An id alone
 * therefore names its record (the base) and its place in it, and the ids stay UUIDs.
 */
export const MAX_OPERATIONS_PER_REQUEST = 256;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function newBaseId(): string {
  return `${randomUUIDv7().slice(0, 34)}00`;
}

/** The ids of the `count` operations of the request `baseId`, in order (the base is the first). */
export function operationIds(baseId: string, count: number): string[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_OPERATIONS_PER_REQUEST) {
    throw new RangeError(`a request has 1–${MAX_OPERATIONS_PER_REQUEST} operations, not ${count}`);
  }
  const stem = baseId.slice(0, 34);
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = stem + HEX_BYTE[i];
  return ids;
}

/** The record an id would belong to and its index there, or undefined for what is not a UUID. */
export function baseOf(id: string): { baseId: string; index: number } | undefined {
  if (!UUID.test(id)) return undefined;
  return { baseId: `${id.slice(0, 34)}00`, index: Number.parseInt(id.slice(34), 16) };
}
