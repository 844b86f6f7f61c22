import type { Kysely } from 'kysely';
import { createKeyStandingRepository } from '../accounts/key-standing.repository.ts';
import { createResultSerialRepository } from '../accounts/result-serial.repository.ts';
import { createUsageLeaseRepository } from '../accounts/usage-lease.repository.ts';
import { resultEntryBody } from '../proof/result-entry.ts';
import { type SignedBlock, type SignedFields, signedResultBody } from '../proof/signed-result.ts';
import type { Clock } from '../shared/clock.ts';
import { sealCertificate } from '../signing/certificate-crypto.ts';
import { checkLease, type Signer } from '../signing/signer.ts';
import type { Database } from '../store/schema.ts';
import { createUnitOfWork } from '../store/unit-of-work.ts';
import type { RecordRow, Spend } from './counted-record.repository.ts';
import type { OperationRepository } from './operation.repository.ts';
import { createSignedResultRepository } from './signed-result.repository.ts';

/** CONTRACT §12: GET /operations/{id} returns a signed result for this long. */
export const SIGNED_RESULT_KEPT_DAYS = 366;
const KEPT_MS = SIGNED_RESULT_KEPT_DAYS * 86_400_000;
/** Expired results are deleted by the process that signs, at most this often. */
const PURGE_INTERVAL_MS = 60 * 60_000;

export type Signed<T> = T & { signed: SignedBlock };

/** The transparency log as signing needs it: one append of a signed entry, in the caller's transaction. */
interface ResultLog {
  appendSigned(
    trx: Kysely<Database>,
    kind: 'result',
    id: string,
    signed: object,
    at: number,
  ): Promise<number>;
}

interface Deps {
  db: Kysely<Database>;
  operations: OperationRepository;
  signer: Pick<Signer, 'current'>;
  clock: Clock;
  log: ResultLog;
}

/**
 * Signs random results and keeps them. A signed request's count, operations record, serials,
 * log entry and stored response commit in one transaction: a result is answered only once it can
 * be retrieved and is in the log, and no serial is shown for a result that was not kept — so an
 * account's serials in the log run 1, 2, 3 … and a missing one is a result withheld.
 */
export function createResultSigning({ db, operations, signer, clock, log }: Deps) {
  const results = createSignedResultRepository(db);
  const leases = createUsageLeaseRepository(db);
  const keys = createKeyStandingRepository(db);
  // The count's statement is prepared once, on the pool, and runs in each transaction.
  const uow = createUnitOfWork(db, (trx) => ({
    /** Why the key may not do business now (revoked, or its plan), read where the result commits. */
    refusal: (keyId: string) => keys.refusal(keyId, trx),
    /** The request's count: its place spent; the key's requests today after it. */
    spend: async (spend: Spend) => {
      if (!(await leases.spend(spend, 1, trx))) throw new Error('the quota block does not hold this place');
      return leases.requestsToday(spend, trx);
    },
    record: (row: RecordRow) => operations.insertMany([row], trx),
    results: createSignedResultRepository(trx),
    accounts: createResultSerialRepository(trx),
    log: (serial: number, entry: object, at: number) =>
      log.appendSigned(trx, 'result', String(serial), entry, at),
  }));
  let lastPurge = 0;

  /** Run by the signed request that finds it due (once an hour per process): one indexed delete. */
  async function purge(now: number) {
    if (now - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = now;
    // A failed purge fails no request: the next signed result tries again.
    await results.purgeBefore(now - KEPT_MS).catch(() => {
      lastPurge = 0;
    });
  }

  return {
    /**
     * Records the request (spending the place `spend` names in its block, when given: the
     * request's count, with the key's requests today after it) and returns `response` signed.
     */
    async issue<T extends Record<string, unknown>>(
      record: RecordRow,
      spend: Spend | undefined,
      response: T,
    ): Promise<{ signed: Signed<T>; requestsToday?: number }> {
      // Loaded before the transaction: loading may write (a new key and its log entry).
      const key = await signer.current();
      const outcome = await uow.run(async (tx) => {
        const requestsToday = spend ? await tx.spend(spend) : undefined;
        // A counted request's key may come from memory (auth.ts): read where its count commits,
        // after the spend's write, so that on SQLite the transaction holds the write lock before it
        // reads (one that reads first cannot write once another process has committed since).
        const refusal = spend ? await tx.refusal(spend.keyId) : undefined;
        if (refusal) throw refusal;
        await tx.record(record);
        const { serial, issuedAt } = await tx.results.nextSerial(clock.now().getTime());
        // Dated within the key's lease, so never after the key's retirement (signing/signer.ts).
        checkLease(key, issuedAt);
        const { accountSerial, account } = await tx.accounts.next(record.account_id);
        const fields: SignedFields = {
          serial,
          account_serial: accountSerial,
          account,
          issued_at: new Date(issuedAt).toISOString(),
        };
        const { hash, signature } = sealCertificate(signedResultBody(response, fields), key);
        const block = { ...fields, hash, signature };
        // The entry says of the result only what the result itself implies (proof/result-entry.ts).
        const entry = sealCertificate(resultEntryBody({ ...response, signed: block }), key);
        const logIndex = await tx.log(serial, entry, issuedAt);
        const signed = { ...response, signed: { ...block, log_index: logIndex } };
        await tx.results.insert({
          serial,
          requestId: record.request_id,
          accountId: record.account_id,
          accountSerial,
          issuedAt,
          result: JSON.stringify(signed),
        });
        return { signed, requestsToday };
      });
      await purge(clock.now().getTime());
      return outcome;
    },

    /** The signed response of the operations record `requestId` (its base id), while it is kept. */
    async find(requestId: string): Promise<Record<string, unknown> | undefined> {
      const stored = await results.find(requestId, clock.now().getTime() - KEPT_MS);
      return stored ? (JSON.parse(stored.result) as Record<string, unknown>) : undefined;
    },
  };
}

export type ResultSigning = ReturnType<typeof createResultSigning>;
