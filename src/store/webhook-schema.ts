import type { Generated } from 'kysely';

/** The webhook tables (migration 010): endpoints, event messages, deliveries and their attempts. */

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  secret: string;
  created_at: number;
  deleted_at: number | null;
}

export interface WebhookMessagesTable {
  id: string;
  account_id: string;
  type: string;
  body: string;
  created_at: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  message_id: string;
  endpoint_id: string;
  ordering_key: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_at: number;
  locked_until: number | null;
  created_at: number;
  done_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  endpoint_id: string;
  message_id: string;
  event: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  at: number;
}
