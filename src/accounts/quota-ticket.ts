import { AppError } from '../shared/errors.ts';

/** A counted request's place in its key's day: what the rate-limit headers say. */
export interface QuotaTicket {
  keyId: string;
  day: string;
  limit: number;
  /** The key's requests today, this one included when it was counted. */
  count: number;
  resetAt: Date;
}

/**
 * The key's daily limit is spent. It carries the numbers of the refusal, so the edge can
 * answer with the same rate-limit fields as a counted answer, timed from the refusal.
 */
export class DailyLimitExceeded extends AppError {
  readonly limit: number;
  readonly resetAt: Date;
  /** When the refusal was decided. */
  readonly at: Date;

  constructor(limit: number, at: Date, resetAt: Date) {
    super(
      'daily_limit_exceeded',
      `Daily limit of ${limit} requests reached; it resets at ${resetAt.toISOString()}`,
      {
        retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - at.getTime()) / 1000)),
      },
    );
    this.limit = limit;
    this.resetAt = resetAt;
    this.at = at;
  }
}
