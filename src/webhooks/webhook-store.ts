import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { createUnitOfWork } from '../store/unit-of-work.ts';
import { createDeliveryRepository } from './delivery.repository.ts';
import { createEndpointRepository } from './endpoint.repository.ts';
import { createOutboxRepository } from './outbox.repository.ts';

/** The webhook tables' repositories, bound to one handle (the pool or a transaction). */
function webhookRepositories(handle: Kysely<Database>) {
  return {
    endpoints: createEndpointRepository(handle),
    deliveries: createDeliveryRepository(handle),
    outbox: createOutboxRepository(handle),
  };
}

/** The repositories for reads, and the unit of work through which every write that spans them goes. */
export function createWebhookStore(db: Kysely<Database>) {
  return {
    repos: webhookRepositories(db),
    uow: createUnitOfWork(db, webhookRepositories),
  };
}
