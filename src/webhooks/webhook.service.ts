import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Database } from '../store/schema.ts';
import type { AttemptRecord } from './delivery.repository.ts';
import type { EndpointRow } from './endpoint.repository.ts';
import { pendingDelivery } from './outbox.repository.ts';
import { messageBody, newMessageId, WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events.ts';
import { SECRET_PREFIX } from './webhook-signature.ts';
import { createWebhookStore } from './webhook-store.ts';
import { checkWebhookHost, checkWebhookUrl, TargetRefused } from './webhook-target.ts';

export const MAX_ENDPOINTS = 10;
export const DESCRIPTION_MAX = 500;
export const URL_MAX = 2048;
const ATTEMPTS_LISTED = 100;

export interface NewEndpointInput {
  url: string;
  events: string[];
  description?: string | undefined;
}

/** An endpoint as listed: never with its secret. */
export interface EndpointView {
  id: string;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  created_at: string;
}

const isEndpointId = (id: string) => /^wh_[0-9A-Za-z]{24}$/.test(id);

function newEndpointId(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let id = 'wh_';
  for (const byte of randomBytes(24)) id += alphabet[byte % 62];
  return id;
}

const viewOf = (row: EndpointRow): EndpointView => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as WebhookEvent[],
  description: row.description,
  created_at: new Date(Number(row.created_at)).toISOString(),
});

const invalid = (parameter: string, message: string) =>
  new AppError('invalid_parameter', `${parameter} ${message}`, { errors: [{ parameter, message }] });

function checkEvents(events: string[]): WebhookEvent[] {
  if (events.length === 0) throw invalid('events', `must name at least one of ${WEBHOOK_EVENTS.join(', ')}`);
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length > 0) {
    throw invalid('events', `has unknown event ${unknown[0]}; known events are ${WEBHOOK_EVENTS.join(', ')}`);
  }
  return [...new Set(events)] as WebhookEvent[];
}

/** CONTRACT §9: an account's webhook endpoints, and the test event and attempt history of each. */
export function createWebhookService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  allowPrivate: boolean;
  /** Asks the delivery runner to look for due work now rather than at its next poll. */
  wake?: () => void;
}) {
  const { clock } = deps;
  const { repos, uow } = createWebhookStore(deps.db);
  const { endpoints } = repos;
  let wake = deps.wake ?? (() => {});

  async function owned(accountId: string, id: string): Promise<EndpointRow> {
    const row = isEndpointId(id) ? await endpoints.find(id) : undefined;
    if (!row) throw new AppError('not_found', 'No webhook endpoint has this id');
    if (row.account_id !== accountId)
      throw new AppError('forbidden', 'This webhook endpoint belongs to another account');
    return row;
  }

  return {
    async create(accountId: string, input: NewEndpointInput): Promise<EndpointView & { secret: string }> {
      if (input.url.length > URL_MAX) throw invalid('url', `must be at most ${URL_MAX} characters`);
      const events = checkEvents(input.events);
      const description = input.description?.trim() || null;
      if (description !== null && description.length > DESCRIPTION_MAX) {
        throw invalid('description', `must be at most ${DESCRIPTION_MAX} characters`);
      }
      let url: URL;
      try {
        url = checkWebhookUrl(input.url, deps.allowPrivate);
        await checkWebhookHost(url, deps.allowPrivate);
      } catch (error) {
        if (error instanceof TargetRefused) throw invalid('url', error.message.replace(/^url /, ''));
        throw error;
      }
      const row: EndpointRow = {
        id: newEndpointId(),
        account_id: accountId,
        url: url.toString(),
        events: JSON.stringify(events),
        description,
        secret: SECRET_PREFIX + randomBytes(32).toString('base64'),
        created_at: clock.now().getTime(),
        deleted_at: null,
      };
      await uow.run(async ({ endpoints }) => {
        await endpoints.lockAccount(accountId);
        if ((await endpoints.listActive(accountId)).length >= MAX_ENDPOINTS) {
          throw new AppError(
            'webhook_limit_reached',
            `This account already has ${MAX_ENDPOINTS} webhook endpoints; delete one first`,
          );
        }
        await endpoints.insert(row);
      });
      return { ...viewOf(row), secret: row.secret };
    },

    async list(accountId: string): Promise<{ webhooks: EndpointView[] }> {
      return { webhooks: (await endpoints.listActive(accountId)).map(viewOf) };
    },

    async remove(accountId: string, id: string): Promise<void> {
      await owned(accountId, id);
      const at = clock.now().getTime();
      await uow.run(async ({ endpoints, deliveries }) => {
        await endpoints.markDeleted(id, at);
        await deliveries.cancelEndpoint(id, at);
      });
    },

    /** Queues a webhook.test message to this endpoint alone, whatever it subscribes to. */
    async test(accountId: string, id: string): Promise<{ message_id: string; event: 'webhook.test' }> {
      const row = await owned(accountId, id);
      const at = clock.now().getTime();
      const messageId = newMessageId(at);
      const body = messageBody({
        type: 'webhook.test',
        at,
        data: { webhook_id: row.id, url: row.url, description: row.description },
      });
      const message = { id: messageId, account_id: accountId, type: 'webhook.test', body, created_at: at };
      await uow.run(({ outbox }) =>
        outbox.insert([message], [pendingDelivery(messageId, row.id, messageId, at)]),
      );
      wake();
      return { message_id: messageId, event: 'webhook.test' };
    },

    async attempts(accountId: string, id: string): Promise<{ deliveries: AttemptRecord[] }> {
      await owned(accountId, id);
      return { deliveries: await repos.deliveries.latestAttempts(id, ATTEMPTS_LISTED) };
    },

    /** Set once the delivery runner exists (it is built after the services). */
    setWake(fn: () => void): void {
      wake = fn;
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
