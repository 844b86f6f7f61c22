import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './001-accounts.ts';
import * as operations from './002-operations.ts';
import * as giveaways from './003-giveaways.ts';
import * as bot from './004-bot.ts';
import * as jobs from './005-jobs.ts';
import * as verifiableDraws from './006-verifiable-draws.ts';
import * as transparencyLog from './007-transparency-log.ts';
import * as logKeysAndWitnesses from './008-log-keys-and-witnesses.ts';
import * as operationRecords from './009-operation-records.ts';
import * as webhooksAndIdempotency from './010-webhooks-and-idempotency.ts';
import * as botConsole from './011-bot-console.ts';
import * as signedResults from './012-signed-results.ts';
import * as timestamps from './013-timestamps.ts';
import * as resultSerials from './014-result-serials.ts';
import * as jobAttempts from './015-job-attempts.ts';
import * as signingKeyUse from './016-signing-key-use.ts';
import * as amendments from './017-amendments.ts';
import * as termsAndOwnerEntries from './018-terms-and-owner-entries.ts';
import * as usageLeases from './019-usage-leases.ts';
import * as botMenuLanguage from './020-bot-menu-language.ts';
import * as jobEffects from './021-job-effects.ts';
import * as participantCsvCells from './022-participant-csv-cells.ts';
import type { DataSteps } from './data-steps.ts';

/**
 * Migrations are listed here rather than discovered on disk, so the order is reviewed in
 * code and a stray file can never run. Append only; never edit one that has shipped.
 */
export function migrationProviderWith(steps?: DataSteps): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001-accounts': accounts,
    '002-operations': operations,
    '003-giveaways': giveaways,
    '004-bot': bot,
    '005-jobs': jobs,
    '006-verifiable-draws': verifiableDraws,
    '007-transparency-log': transparencyLog,
    '008-log-keys-and-witnesses': {
      up: (db) => logKeysAndWitnesses.up(db, steps),
      down: logKeysAndWitnesses.down,
    },
    '009-operation-records': operationRecords,
    '010-webhooks-and-idempotency': webhooksAndIdempotency,
    '011-bot-console': botConsole,
    '012-signed-results': signedResults,
    '013-timestamps': timestamps,
    '014-result-serials': resultSerials,
    '015-job-attempts': jobAttempts,
    '016-signing-key-use': signingKeyUse,
    '017-amendments': amendments,
    '018-terms-and-owner-entries': termsAndOwnerEntries,
    '019-usage-leases': usageLeases,
    '020-bot-menu-language': botMenuLanguage,
    '021-job-effects': jobEffects,
    '022-participant-csv-cells': participantCsvCells,
  };
  return { getMigrations: async () => migrations };
}

/** Without data steps: enough for a database with nothing signed before 008 (008 refuses otherwise). */
export const migrationProvider: MigrationProvider = migrationProviderWith();
