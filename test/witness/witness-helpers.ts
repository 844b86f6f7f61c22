import type { KeyedPlace } from '../../src/config.ts';
import { createLogService, type LogService } from '../../src/log/log.service.ts';
import { readLogKey, seedOf } from '../../src/log/log-key.ts';
import { parseVerifierKey } from '../../src/proof/note.ts';
import { formatAddCheckpoint } from '../../src/proof/witness-protocol.ts';
import type { Store } from '../../src/store/store.ts';

export type GrowingLog = LogService & {
  grow(n: number): Promise<void>;
  /** The log key's seed, to sign what the real log never would (a fork). */
  seed(): Promise<Uint8Array>;
  /** The TYCHE_WITNESS_LOGS entry a witness of this log is configured with. */
  entry(): Promise<KeyedPlace>;
  /** An add-checkpoint body from `oldSize` to `size`, with the log's own proof and checkpoint. */
  request(oldSize: number, size: number): Promise<string>;
};

/** A real log on a migrated store, grown one entry at a time. */
export function growingLog(store: Store, origin: string): GrowingLog {
  const log = createLogService({ db: store.db, origin });
  let next = 0;
  return Object.assign(log, {
    async grow(n: number) {
      for (let i = 0; i < n; i++, next++) {
        await store.db
          .transaction()
          .execute((trx) =>
            log.appendSigned(trx, 'seal', `s_${next}`, { type: 'tyche-seal-v2', n: next }, next),
          );
      }
    },
    seed: async () => seedOf(await readLogKey(store.db)),
    async entry() {
      const { key } = await log.publicKey();
      return { place: origin, vkey: key, key: parseVerifierKey(key) };
    },
    async request(oldSize: number, size: number) {
      return formatAddCheckpoint({
        oldSize,
        proof: await log.log.consistencyProof(oldSize, size),
        note: (await log.signedCheckpoint(size)).note,
      });
    },
  });
}

export async function post(url: string, body: string) {
  const res = await fetch(`${url}/add-checkpoint`, { method: 'POST', body });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}
