/**
 * Appends a signed seal, certificate or amendment to the transparency log in the transaction that
 * stores it; returns its index.
 */
export type LogAppend = (
  kind: 'seal' | 'certificate' | 'amendment',
  id: string,
  signed: object,
  at: number,
) => Promise<number>;
