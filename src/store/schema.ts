import type { Generated } from 'kysely';

/**
 * Table shapes shared by both adapters. Times are epoch milliseconds in a bigint column, so
 * both engines sort and compare them the same way without time-zone handling.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
  operations: OperationsTable;
}

export interface AccountsTable {
  id: string;
  plan: string;
  telegram_id: number | null;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  label: string | null;
  daily_limit: number;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface UsageDailyTable {
  key_id: string;
  day: string;
  count: Generated<number>;
}

export interface OperationsTable {
  request_id: string;
  x_request_id: string;
  account_id: string;
  key_id: string;
  endpoint: string;
  source: string;
  source_reference: string;
  source_fetched_at: number;
  created_at: number;
}
