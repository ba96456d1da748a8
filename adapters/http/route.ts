/** One endpoint: method, path pattern, how it is named in rejections, how it fails, and its handler. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../../domain/session/caller.ts';
import type { DaemonGate } from './gatePort.ts';
import type { RouteKind } from './replies.ts';
import type { ServerSettings } from './serverSettings.ts';

export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Decoded path parameters, in pattern order. */
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  readonly gate: DaemonGate;
  readonly settings: ServerSettings;
  /** Name of the endpoint in recorded rejections, e.g. `hermes:pre_tool_call`. */
  readonly endpoint: string;
  /** Reads and parses the JSON body (size and time bounded). */
  json(): Promise<unknown>;
  /** Registers a response that stays open (SSE) so closing the server ends it. */
  holdOpen(end: () => void): () => void;
  /** Who asks, as the listener and the request's registration MAC proved it (never a body field). */
  readonly caller: Caller;
  readonly listener: 'runtime-socket' | 'http' | 'human-socket';
  /** Set by handlers as soon as they know them, so a failure is filed under the right session and call. */
  sessionId: string | null;
  callId: string | null;
}

export type RouteResult = { readonly status: number; readonly body: unknown } | { readonly streamed: true };

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly pattern: RegExp;
  readonly endpoint: (params: readonly string[]) => string;
  readonly kind: (params: readonly string[]) => RouteKind;
  readonly handle: (ctx: RouteContext) => Promise<RouteResult>;
}

export const ok = (body: unknown, status = 200): RouteResult => ({ status, body });

export type RouteMatch =
  | { readonly found: 'route'; readonly route: Route; readonly params: readonly string[] }
  | { readonly found: 'wrong-method'; readonly allowed: readonly string[] }
  | { readonly found: 'none' };

export const matchRoute = (routes: readonly Route[], method: string, path: string): RouteMatch => {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m === null) continue;
    if (route.method !== method) { allowed.push(route.method); continue; }
    let params: string[];
    try { params = m.slice(1).map((p) => decodeURIComponent(p ?? '')); } catch { params = m.slice(1).map((p) => p ?? ''); }
    return { found: 'route', route, params };
  }
  return allowed.length > 0 ? { found: 'wrong-method', allowed } : { found: 'none' };
};
