/**
 * Requests signed by a registered runtime, and the daemon's signed answers.
 *
 * A runtime registers once (`POST /v1/runtime/register`) and receives a 32-byte key; the key never travels again.
 * Every later request carries `x-tollgate-registration: <id>`, `x-tollgate-nonce: <random>` and
 * `x-tollgate-auth: base64(HMAC-SHA256(key, METHOD \n PATH \n NONCE \n BODY))`. The answer carries
 * `x-tollgate-mac: base64(HMAC-SHA256(key, NONCE \n STATUS \n BODY))`, so a process that binds the socket later
 * (a fake daemon) cannot answer for the daemon the runtime registered with, and an old answer cannot be replayed
 * to a new request.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RuntimeRegistry } from '../../ops/gate/runtimeRegistry.ts';

export const registrationHeader = 'x-tollgate-registration';
export const nonceHeader = 'x-tollgate-nonce';
export const authHeader = 'x-tollgate-auth';
export const macHeader = 'x-tollgate-mac';

const mac = (key: Buffer, parts: readonly string[]): string => {
  const h = createHmac('sha256', key);
  parts.forEach((part, i) => { if (i > 0) h.update('\n'); h.update(part, 'utf8'); });
  return h.digest('base64');
};

export const requestMac = (key: Buffer, method: string, path: string, nonce: string, body: string): string => mac(key, [method, path, nonce, body]);
export const answerMac = (key: Buffer, nonce: string, status: number, body: string): string => mac(key, [nonce, String(status), body]);

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

const single = (req: IncomingMessage, name: string): string | null => {
  const value = req.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The registration a request claims, or null when it claims none (an anonymous caller). */
export const claimedRegistration = (req: IncomingMessage): string | null => single(req, registrationHeader);

export type RuntimeAuth =
  | { readonly ok: true; readonly registrationId: string; readonly sign: (status: number, body: string) => string }
  | { readonly ok: false; readonly code: 'unknown-registration' | 'bad-auth'; readonly message: string };

/** Checks a request that claims a registration against the body it sent. */
export const authenticate = (req: IncomingMessage, registry: RuntimeRegistry, body: string): RuntimeAuth => {
  const registrationId = claimedRegistration(req) ?? '';
  const registration = registry.get(registrationId);
  if (registration === undefined)
    return { ok: false, code: 'unknown-registration', message: `No runtime is registered as "${registrationId.slice(0, 80)}".` };
  const nonce = single(req, nonceHeader);
  const given = single(req, authHeader);
  if (nonce === null || nonce.length < 16 || nonce.length > 128 || given === null)
    return { ok: false, code: 'bad-auth', message: `A registered request needs ${nonceHeader} (16 to 128 characters) and ${authHeader}.` };
  const expected = requestMac(registration.key, req.method ?? 'GET', req.url ?? '/', nonce, body);
  if (!same(given, expected)) return { ok: false, code: 'bad-auth', message: `The ${authHeader} signature does not match the request.` };
  if (!registry.useNonce(registrationId, nonce)) return { ok: false, code: 'bad-auth', message: `The nonce was already used: a replayed request.` };
  return { ok: true, registrationId, sign: (status, answer) => answerMac(registration.key, nonce, status, answer) };
};
