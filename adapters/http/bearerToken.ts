/** The loopback HTTP listener's access check: `Authorization: Bearer <token>`, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Returns the check for one token. Both sides are hashed first, so neither length nor content leaks by timing. */
export const bearerCheck = (token: string): ((req: IncomingMessage) => boolean) => {
  if (token.trim().length < 16) throw new Error('The HTTP bearer token must be at least 16 characters long.');
  const expected = digest(token);
  return (req) => {
    const header = req.headers.authorization;
    if (typeof header !== 'string') return false;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    const given = digest(match?.[1] ?? '');
    return timingSafeEqual(given, expected) && match !== null;
  };
};
