/** An RFC 3161 token kept for a seal or certificate (migration 013, CONTRACT §13). */
export interface TimestampsTable {
  subject_kind: string;
  subject_id: string;
  /** The TSA's URL, as configured when the token was asked for. */
  tsa: string;
  /** The token's genTime, epoch milliseconds. */
  gen_time: number;
  /** Base64 of the DER TimeStampToken as the TSA sent it. */
  token: string;
  created_at: number;
}
