import type { Job, JobOutcome } from '../jobs/job-runner.ts';
import type { Clock } from '../shared/clock.ts';
import type { DeliveryRepository } from './delivery.repository.ts';
import type { SendDelivery } from './webhook-sender.ts';
import { signDelivery } from './webhook-signature.ts';

/**
 * One attempt of one claimed delivery (CONTRACT §9): signed afresh with this attempt's time,
 * recorded whatever happens, retried after the next delay of TYCHE_WEBHOOK_RETRY_S, and
 * marked failed once the delays are spent. A process that dies mid-attempt leaves the lease to
 * run out and the attempt to be made again: delivery is at least once, with the same
 * `webhook-id`, which receivers use to drop repeats.
 */
export function createDeliveryHandler(deps: {
  deliveries: DeliveryRepository;
  send: SendDelivery;
  clock: Clock;
  /** Seconds before each retry; its length is the number of retries. */
  retryDelaysS: readonly number[];
  onFailed?: (event: string) => void;
}) {
  const { deliveries, clock } = deps;
  return async (job: Job): Promise<JobOutcome> => {
    const delivery = await deliveries.load(job.id);
    if (!delivery) return { done: true };
    const now = () => clock.now().getTime();
    if (delivery.endpointDeleted) {
      await deliveries.cancel(delivery.id, now());
      return { done: true };
    }
    const at = now();
    const timestamp = Math.floor(at / 1000);
    const result = await deps.send({
      url: delivery.url,
      body: delivery.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Tyche-Webhooks/1',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signDelivery(delivery.secret, delivery.messageId, timestamp, delivery.body),
      },
    });
    const delivered = result.error === null;
    const retriesLeft = delivery.attempts <= deps.retryDelaysS.length;
    const final = delivered ? 'delivered' : retriesLeft ? null : 'failed';
    await deliveries.recordAttempt(
      delivery,
      { statusCode: result.statusCode, error: result.error, at },
      final,
    );
    if (final === 'failed') deps.onFailed?.(delivery.event);
    if (final !== null) return { done: true };
    return {
      retryAt: now() + deps.retryDelaysS[delivery.attempts - 1] * 1000,
      reason: result.error ?? 'not delivered',
    };
  };
}
