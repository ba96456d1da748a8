/**
 * One request, start to end: authorise (HTTP listener), establish the caller (the listener, and for a request that
 * claims a runtime registration its MAC: runtimeAuth.ts), match a route, run it, answer JSON (signed for a
 * registered caller). Any failure becomes
 * an error body naming the problem and where it is; deciding endpoints answer with a block (or a held reply)
 * as well, and the rejection is recorded in the ledger. Nothing thrown here escapes to crash the daemon.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { anonymousRuntime, humanCaller, registeredRuntime, type Caller } from '../../domain/session/caller.ts';
import type { DaemonGate } from './gatePort.ts';
import { asProblem, HttpProblem } from './httpProblem.ts';
import { parseJson } from './parseBody.ts';
import { readBody } from './readBody.ts';
import { failureBody, isToolCallKind, type RouteKind } from './replies.ts';
import { visibleJson } from '../../domain/encoding/visibleText.mjs';
import { matchRoute, type Route, type RouteContext } from './route.ts';
import type { ServerSettings } from './serverSettings.ts';
import { authenticate, claimedRegistration, macHeader } from './runtimeAuth.ts';

export interface HandlerDeps {
  readonly gate: DaemonGate;
  readonly settings: ServerSettings;
  readonly routes: readonly Route[];
  /** Keeps long-lived responses (SSE) so closing the server can end them; returns the release function. */
  readonly holdOpen: (end: () => void) => () => void;
}

export type Authorize = (req: IncomingMessage) => boolean;

/**
 * Where a request arrived. The runtime socket and loopback HTTP serve runtimes (anonymous unless the request is
 * signed with a registration's key); the human socket's callers are the human channel, whatever they claim.
 */
export interface Listener {
  readonly name: 'runtime-socket' | 'http' | 'human-socket';
  readonly authorize: Authorize | null;
}

export type SignAnswer = (status: number, body: string) => string;

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, sign: SignAnswer | null = null): void => {
  if (res.headersSent || res.destroyed) return;
  // People read answers raw too (curl on the socket): direction and invisible characters go as \uXXXX escapes,
  // which JSON readers decode to the same values.
  const payload = visibleJson(body);
  const signed = sign === null ? headers : { ...headers, [macHeader]: sign(status, payload) };
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...signed });
  res.end(payload);
};

export const createRequestHandler = (deps: HandlerDeps, listener: Listener) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    res.on('error', () => undefined);
    void handle(deps, listener, req, res).catch((error: unknown) => {
      deps.settings.log({ msg: 'request handler failed', problem: (error as Error).message });
      if (!res.headersSent) sendJson(res, 500, asProblem(error).body); else res.destroy();
    });
  };

const handle = async (deps: HandlerDeps, listener: Listener, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const { authorize } = listener;
  const { gate, settings } = deps;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const method = req.method ?? 'GET';
  const match = matchRoute(deps.routes, method, path);
  const kind: RouteKind = match.found === 'route' ? match.route.kind(match.params) : /tool/i.test(path) ? 'tool-call' : 'other';
  const endpoint = match.found === 'route' ? match.route.endpoint(match.params) : `${method} ${path.slice(0, 200)}`;

  if (authorize !== null && !authorize(req)) {
    const problem = new HttpProblem(401, 'unauthorized', 'A valid "Authorization: Bearer <token>" header is required.', 'header.authorization');
    sendJson(res, 401, failureBody(kind, problem, null), { 'www-authenticate': 'Bearer', connection: 'close' });
    return;
  }

  const limits = { maxBytes: settings.maxBodyBytes, timeoutMs: settings.bodyTimeoutMs };
  let caller: Caller = listener.name === 'human-socket' ? humanCaller('human-socket') : anonymousRuntime;
  let sign: SignAnswer | null = null;
  let body: string | null = null;
  if (listener.name !== 'human-socket' && claimedRegistration(req) !== null) {
    // A request that claims a registration must prove it before anything runs: the body is part of the proof.
    try { body = await readBody(req, limits); } catch (error) {
      const problem = asProblem(error);
      await record(deps, endpoint, problem, null, isToolCallKind(kind));
      sendJson(res, problem.status, failureBody(kind, problem, null), { connection: 'close' });
      return;
    }
    const auth = authenticate(req, gate.runtimes, body);
    if (!auth.ok) {
      const problem = new HttpProblem(401, auth.code, `${auth.message} Refused: a runtime that registered signs every request with its key.`, 'header.x-tollgate-registration');
      await record(deps, endpoint, new HttpProblem(401, auth.code, `channel:${auth.code}: ${auth.message}`, problem.where), null, isToolCallKind(kind));
      sendJson(res, 401, failureBody(kind, problem, null));
      return;
    }
    caller = registeredRuntime(auth.registrationId);
    sign = auth.sign;
  }

  const ctx: RouteContext = {
    req, res, query, gate, settings, endpoint, params: match.found === 'route' ? match.params : [],
    sessionId: null, callId: null, caller, listener: listener.name,
    json: async () => parseJson(body ?? await readBody(req, limits)),
    holdOpen: deps.holdOpen,
  };
  try {
    if (match.found === 'none')
      throw new HttpProblem(404, 'unknown-route', `No endpoint ${method} ${path.slice(0, 200)}.`, 'path');
    if (match.found === 'wrong-method')
      throw new HttpProblem(405, 'method-not-allowed', `${path.slice(0, 200)} does not accept ${method}; it accepts ${match.allowed.join(', ')}.`, 'method');
    const result = await match.route.handle(ctx);
    if ('streamed' in result) return;
    sendJson(res, result.status, result.body, {}, sign);
  } catch (error) {
    const problem = asProblem(error);
    await record(deps, endpoint, problem, ctx.sessionId, isToolCallKind(kind));
    if (problem.code === 'client-closed') return;
    if (res.headersSent) { res.destroy(); return; }
    sendJson(res, problem.status, failureBody(kind, problem, ctx.sessionId, ctx.callId),
      problem.code === 'body-timeout' ? { connection: 'close' } : {}, sign);
    if (problem.code === 'body-too-large') lingerThenClose(req, settings.bodyTimeoutMs);
  }
};

const record = async (deps: HandlerDeps, endpoint: string, problem: HttpProblem, sessionId: string | null, toolCall: boolean): Promise<void> => {
  deps.settings.log({ msg: 'request rejected', endpoint, code: problem.code, where: problem.where, status: problem.status, sessionId, toolCall });
  try {
    await deps.gate.recordRejection(endpoint, `${problem.code} at ${problem.where}: ${problem.message}`, sessionId, toolCall);
  } catch {
    // Recording failed too; the answer is still a refusal.
  }
};

/**
 * After a 413 the rest of the body is read and dropped (not stored) so the client receives the answer instead of a
 * connection reset; a client that keeps sending past the body deadline is cut off.
 */
const lingerThenClose = (req: IncomingMessage, ms: number): void => {
  if (req.complete) return;
  req.resume();
  const timer = setTimeout(() => { if (!req.complete) req.socket.destroy(); }, ms);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
};
