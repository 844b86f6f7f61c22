import { createLogService } from '../../src/log/log.service.ts';
import type { Clock } from '../../src/shared/clock.ts';
import { createSigner } from '../../src/signing/signer.ts';
import { createSigningKeyRepository } from '../../src/signing/signing-key.repository.ts';
import type { Store } from '../../src/store/store.ts';

export const LOG_ORIGIN = '127.0.0.1:8080/log';

/** Announces keys in the store's log, as the service does. */
export function announceIn(store: Store) {
  const log = createLogService({ db: store.db, origin: LOG_ORIGIN });
  return (
    trx: Parameters<typeof log.appendKey>[0],
    row: Parameters<typeof log.appendKey>[1],
    retired: boolean,
  ) => log.appendKey(trx, row, retired);
}

/** A signer as one process on `store` holds it: each call is another process (its own leases). */
export function processSigner(store: Store, clock: Clock, secret?: string) {
  return createSigner({ keys: createSigningKeyRepository(store.db, announceIn(store)), clock, secret });
}
