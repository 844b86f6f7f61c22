/**
 * Appends a signed seal or certificate to the transparency log in the transaction that stores
 * it; returns its index.
 */
export type LogAppend = (
  kind: 'seal' | 'certificate',
  id: string,
  signed: object,
  at: number,
) => Promise<number>;
