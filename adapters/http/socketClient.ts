/**
 * A small client of the daemon, for the CLI (`tail`, `approve`), hook clients, the bench and tests: one JSON
 * request over the Unix socket (or loopback HTTP with the token), and an event stream reader with resume.
 * Connections are kept alive and reused per socket path; idle ones never keep the process running.
 */
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { SseParser, type SseMessage } from './sse/sseParser.ts';

export type DaemonTarget =
  | { readonly socketPath: string }
  /** Loopback HTTP; every request needs the token (left out only to test the refusal). */
  | { readonly host: string; readonly port: number; readonly token?: string };

export interface DaemonResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body parsed as JSON; null when it is not JSON. */
  readonly json: unknown;
  readonly text: string;
}

export interface ClientOptions {
  /** Give up (and reject) after this long without an answer. @defaultValue 30_000 */
  readonly timeoutMs?: number;
  /** @defaultValue a shared keep-alive agent */
  readonly agent?: Agent | false;
}

/** A JSON value is sent as JSON; a string or Buffer is sent as it is (to test what the daemon does with bad input). */
export type RequestBody = string | Buffer | Readonly<Record<string, unknown>> | readonly unknown[] | undefined;

/** Idle connections are dropped before the daemon's 5 s keep-alive ends, so a reused one is never half-closed. */
const sharedAgent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 4000 });

const connection = (target: DaemonTarget, headers: Record<string, string>) => ('socketPath' in target
  ? { socketPath: target.socketPath, headers }
  : { host: target.host, port: target.port, headers: target.token === undefined ? headers : { authorization: `Bearer ${target.token}`, ...headers } });

const encode = (body: RequestBody): Buffer | null => {
  if (body === undefined) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(JSON.stringify(body), 'utf8');
};

const parseJson = (text: string): unknown => {
  try { return JSON.parse(text) as unknown; } catch { return null; }
};

export const requestDaemon = (
  target: DaemonTarget, method: string, path: string, body?: RequestBody, headers: Record<string, string> = {}, options: ClientOptions = {},
): Promise<DaemonResponse> => new Promise((resolve, reject) => {
  const payload = encode(body);
  const sent = payload === null ? headers : { 'content-type': 'application/json', 'content-length': String(payload.length), ...headers };
  const req = request({ ...connection(target, sent), method, path, agent: options.agent ?? sharedAgent }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: res.statusCode ?? 0, headers: res.headers, json: parseJson(text), text });
    });
  });
  req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`tollgate daemon did not answer ${method} ${path} within ${options.timeoutMs ?? 30_000} ms`)));
  req.on('error', reject);
  req.end(payload ?? undefined);
});

export const requestOverSocket = (
  socketPath: string, method: string, path: string, body?: RequestBody, headers: Record<string, string> = {}, options: ClientOptions = {},
): Promise<DaemonResponse> => requestDaemon({ socketPath }, method, path, body, headers, options);

export interface EventStreamOptions {
  /** Resume after this event id (sent as Last-Event-ID). */
  readonly lastEventId?: string | number;
  readonly onMessage: (message: SseMessage) => void;
  readonly onComment?: (text: string) => void;
  /** Called with the response head (status and headers) once it arrives. */
  readonly onOpen?: (response: IncomingMessage) => void;
}

export interface EventStreamHandle {
  /** The last id received (what to resume from). */
  lastEventId(): string | null;
  /** Resolves when the stream ends (the daemon closed it, or close() was called); rejects on a connection error. */
  readonly done: Promise<void>;
  close(): void;
}

/** Reads `GET /v1/stream` (or any SSE path). The CLI's `tail` prints each message; reconnecting is the caller's choice. */
export const openEventStream = (target: DaemonTarget, path: string, options: EventStreamOptions): EventStreamHandle => {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
  const parser = new SseParser({ onMessage: options.onMessage, ...(options.onComment ? { onComment: options.onComment } : {}) });
  let closing = false;
  let req: ReturnType<typeof request> | null = null;
  const done = new Promise<void>((resolve, reject) => {
    req = request({ ...connection(target, headers), method: 'GET', path, agent: false }, (res) => {
      options.onOpen?.(res);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.push(chunk));
      res.on('end', () => resolve());
      res.on('close', () => resolve());
      res.on('error', (error) => (closing ? resolve() : reject(error)));
    });
    req.on('error', (error) => (closing ? resolve() : reject(error)));
    req.end();
  });
  return {
    lastEventId: () => parser.lastEventId ?? (options.lastEventId === undefined ? null : String(options.lastEventId)),
    done,
    close: () => { closing = true; req?.destroy(); },
  };
};
