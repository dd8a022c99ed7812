import { createHmac } from 'node:crypto';

/**
 * `X-SIGNATURE` = Base64(HMAC-SHA256(payload, secret)), payload and secret as UTF-8. Pass the exact
 * bytes that will be sent: a string is encoded as UTF-8 here, so signing a string and sending a
 * different serialization of the same object gives a 401.
 */
export function sign(payload: string | Uint8Array, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload)
    .digest('base64');
}
