/**
 * A registered runtime as the Hermes plugin is one: registers over the socket, signs every request with its key and
 * checks the daemon's MAC on every answer (the test fails on an unsigned or wrongly signed answer).
 */
import { randomBytes } from 'node:crypto';
import { answerMac, authHeader, macHeader, nonceHeader, registrationHeader, requestMac } from '../../../../adapters/http/runtimeAuth.ts';
import { requestOverSocket, type DaemonResponse } from '../../../support/httpClient.ts';

export interface RegisteredRuntime {
  readonly registrationId: string;
  readonly key: Buffer;
  request(method: string, path: string, body?: Readonly<Record<string, unknown>>): Promise<DaemonResponse>;
}

export const registerRuntime = async (socket: string, pid: number = process.pid, runtime = 'hermes'): Promise<RegisteredRuntime> => {
  const reply = await requestOverSocket(socket, 'POST', '/v1/runtime/register', { runtime, pid });
  if (reply.status !== 200) throw new Error(`register answered ${reply.status}: ${reply.text}`);
  const json = reply.json as { registration_id: string; key: string };
  return signedRuntime(socket, json.registration_id, Buffer.from(json.key, 'base64'));
};

export const signedRuntime = (socket: string, registrationId: string, key: Buffer): RegisteredRuntime => ({
  registrationId, key,
  request: async (method, path, body) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const nonce = randomBytes(18).toString('base64url');
    const reply = await requestOverSocket(socket, method, path, body === undefined ? undefined : text, {
      [registrationHeader]: registrationId, [nonceHeader]: nonce, [authHeader]: requestMac(key, method, path, nonce, text),
    });
    const mac = reply.headers[macHeader];
    if (mac !== answerMac(key, nonce, reply.status, reply.text)) throw new Error(`the answer to ${method} ${path} (HTTP ${reply.status}) is not signed by the daemon: ${reply.text.slice(0, 200)}`);
    return reply;
  },
});
