/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, CONTRACT
 * C8.5): a secret `whsec_` + base64 of 32 random bytes; each attempt is
 * signed with HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}`,
 * sent as `webhook-signature: v1,<base64>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The headers of one attempt. `timestamp` is in seconds. */
export function signedHeaders(secret: string, messageId: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
