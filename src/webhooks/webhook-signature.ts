import { createHmac } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/**
 * Standard Webhooks v1: base64 HMAC-SHA256, keyed with the secret's bytes (the base64 after
 * `whsec_`), over `<msg id>.<unix seconds>.<body>`.
 */
export function signDelivery(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
