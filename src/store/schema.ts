import type { Generated } from 'kysely';
import type { AmendmentsTable, WinnerClaimsTable } from './amendment-schema.ts';
import type {
  LogCosignaturesTable,
  LogEntriesTable,
  LogHeadTable,
  LogKeyTable,
  LogNodesTable,
  LogWitnessSizesTable,
  WitnessKeyTable,
  WitnessLogsTable,
} from './log-schema.ts';
import type { GiveawayTermsTable, LogOwnerEntriesTable } from './terms-schema.ts';
import type { TimestampsTable } from './timestamp-schema.ts';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookMessagesTable,
} from './webhook-schema.ts';

/**
 * Table shapes shared by both adapters. Times are epoch milliseconds in a bigint column, so
 * both engines sort and compare them the same way without time-zone handling.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
  usage_leases: UsageLeasesTable;
  operations: OperationsTable;
  giveaways: GiveawaysTable;
  participants: ParticipantsTable;
  certificates: CertificatesTable;
  signing_keys: SigningKeysTable;
  signing_key_use: SigningKeyUseTable;
  bot_users: BotUsersTable;
  jobs: JobsTable;
  seals: SealsTable;
  log_entries: LogEntriesTable;
  log_nodes: LogNodesTable;
  log_head: LogHeadTable;
  log_key: LogKeyTable;
  log_cosignatures: LogCosignaturesTable;
  log_witness_sizes: LogWitnessSizesTable;
  witness_key: WitnessKeyTable;
  witness_logs: WitnessLogsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  bot_conversations: BotConversationsTable;
  giveaway_conditions: GiveawayConditionsTable;
  condition_checks: ConditionChecksTable;
  condition_failures: ConditionFailuresTable;
  excluded_entrants: ExcludedEntrantsTable;
  channel_posts: ChannelPostsTable;
  idempotency_keys: IdempotencyKeysTable;
  result_serials: ResultSerialsTable;
  signed_results: SignedResultsTable;
  timestamps: TimestampsTable;
  amendments: AmendmentsTable;
  winner_claims: WinnerClaimsTable;
  giveaway_terms: GiveawayTermsTable;
  log_owner_entries: LogOwnerEntriesTable;
}

export interface AccountsTable {
  id: string;
  plan: string;
  telegram_id: number | null;
  created_at: number;
  /**
   * The public pseudonym seals name as `owner` and signed results as `account`: given when the
   * account is made (migration 014 gave one to every account that had none).
   */
  owner_pseudonym: string | null;
  /** The account's last signed-result serial (CONTRACT §12 `account_serial`); 0 before its first. */
  last_result_serial: Generated<number>;
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
  /** Requests counted one at a time, plus every block the `usage_leases` rows hold (migration 019). */
  count: Generated<number>;
}

/** A block of a key's daily allowance held by one process (migration 019). */
export interface UsageLeasesTable {
  key_id: string;
  day: string;
  holder: string;
  granted: number;
  used: Generated<number>;
  leased_at: number;
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
  /** How many operation ids the record names, derived from `request_id` (migration 009). */
  operation_count: Generated<number>;
}

export interface BotUsersTable {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
  started_at: number;
  last_seen_at: number;
  /** Chosen with /language; null: from Telegram's language_code. */
  language: string | null;
  /** Telegram's language_code at the user's last message. */
  language_code: string | null;
  /** The language of the menu button set in the user's private chat; null: the default (migration 020). */
  menu_language: string | null;
}

export interface GiveawaysTable {
  id: Generated<number>;
  public_id: string;
  account_id: string;
  title: string;
  description: string | null;
  winners_count: number;
  status: string;
  participants_count: Generated<number>;
  created_at: number;
  drawn_at: number | null;
  certificate_id: string | null;
  draw_mode: Generated<string>;
  ends_at: number | null;
  reserve_count: Generated<number>;
  sealed_at: number | null;
  /** 1 when a join through the bot first asks a button challenge. */
  join_challenge: Generated<number>;
  /** How long each winner has to claim, in ms; null: no deadline (migration 017). */
  claim_within: number | null;
  /** SHA-256 hex of the terms in giveaway_terms, null when none (migration 018): what the seal commits to. */
  terms_sha256: string | null;
}

/** An entrant's row as joined; an excluded entrant keeps these columns when the seal moves it out. */
interface EntrantColumns {
  giveaway_id: number;
  telegram_id: number;
  entry_number: number;
  username: string | null;
  first_name: string | null;
  joined_at: number;
}

export interface ParticipantsTable extends EntrantColumns {
  /** 16 bytes, hex; null only for a row whose id the migration could not hash. */
  salt: string | null;
  leaf_hash: string | null;
  /**
   * PostgreSQL only (migration 022): the entrant's line of the participants report up to
   * `is_winner`, written as the entrant joins. SQLite has no such column.
   */
  csv_cells?: string | null;
}

export interface CertificatesTable {
  id: string;
  giveaway_id: number;
  /** The sealed certificate JSON, stored as issued and never rewritten. */
  body: string;
  created_at: number;
  /** JSON `{checkpoint, index, proof}`: the witnessed checkpoint holding the seal (v2), or null. */
  seal_witness: string | null;
}

export interface SigningKeysTable {
  kid: string;
  x: string;
  private_seed: string | null;
  origin: string;
  created_at: number;
  retired_at: number | null;
}

/** A process's lease on the signing key it signs with (migration 016). */
export interface SigningKeyUseTable {
  kid: string;
  process_id: string;
  /** Epoch milliseconds, the process's clock: it dates no signature by `kid` later than this. */
  until: number;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  key: string;
  payload: string;
  run_at: number;
  attempts: Generated<number>;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
  failures: Generated<number>;
  failed_at: number | null;
  /** The claim under which a run began an effect it cannot take back, until the job is done. */
  effect_attempt: number | null;
}

export interface SealsTable {
  giveaway_id: number;
  seal_id: string;
  body: string;
  round: number;
  round_at: number;
  entrants_count: number;
  chunk_roots: Uint8Array;
  chunk_firsts: Uint8Array;
  created_at: number;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  fingerprint: string;
  locked_until: number | null;
  status_code: number | null;
  response: string | null;
  created_at: number;
  expires_at: number;
}

export interface BotConversationsTable {
  telegram_id: number;
  kind: string;
  step: string;
  /** JSON of the answers so far. */
  data: string;
  updated_at: number;
}

export interface GiveawayConditionsTable {
  giveaway_id: number;
  position: number;
  chat_id: number;
  label: string;
  invite_url: string | null;
}

export interface ConditionChecksTable {
  giveaway_id: number;
  after_entry: number;
  started_at: number;
  finished_at: number | null;
}

export interface ConditionFailuresTable {
  giveaway_id: number;
  telegram_id: number;
  reason: string;
  checked_at: number;
}

export interface ExcludedEntrantsTable extends EntrantColumns {
  reason: string;
  excluded_at: number;
}

export interface ChannelPostsTable {
  giveaway_id: number;
  chat_id: number;
  message_id: number | null;
  language: string;
  count_shown: Generated<number>;
  created_at: number;
}

/** The deployment's last signed-result serial and when it was issued (one row, id 1; migration 012). */
export interface ResultSerialsTable {
  id: number;
  last_serial: number;
  last_issued_at: number;
}

/** A signed random result, kept for GET /operations/{id} (CONTRACT §12). */
export interface SignedResultsTable {
  serial: number;
  /** The base id of the request's operations record. */
  request_id: string;
  account_id: string;
  issued_at: number;
  /** The result's `account_serial`; null for a result signed before results were counted. */
  account_serial: number | null;
  /** JSON text of the response as sent, `signed` included. */
  result: string;
}
