/** The digest events store in place of raw text: hex HMAC-SHA256 under a key only this installation holds. */
import { createHmac } from 'node:crypto';

export const hmacDigest = (key: Buffer, text: string): string => createHmac('sha256', key).update(text, 'utf8').digest('hex');
