/**
 * The daemon's HTTP layer on node:http: the same routes on a Unix socket (mode 0600, no token: the file mode is
 * the access control) and, optionally, on a loopback TCP port where every request needs the bearer token. The
 * human channel (`server.human_socket`) is a third listener with only the human's routes (answers, reads).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import { bearerCheck } from './bearerToken.ts';
import type { DaemonGate } from './gatePort.ts';
import { isLoopbackHost, NotLoopbackError } from './loopback.ts';
import { humanSocketAccess } from './humanSocket.ts';
import { createRequestHandler, type Listener } from './requestHandler.ts';
import type { Route } from './route.ts';
import { humanRouteTable, routeTable } from './routes/routeTable.ts';
import { serverSettings, type DaemonServerOptions } from './serverSettings.ts';
import { listenOnSocket } from './socketFile.ts';

export type { DaemonServerOptions } from './serverSettings.ts';

export interface DaemonServer {
  /** Listens on a Unix socket (a stale socket file is replaced; the new one is mode 0600). */
  listenSocket(path: string): Promise<void>;
  /** The human channel: answers recorded as answered by `human-socket`; group may enter its directory (0750, socket 0660). */
  listenHumanSocket(path: string, group?: string | null): Promise<void>;
  /** Listens on loopback TCP; refuses any other host. Resolves with the bound address (port 0 picks a free one). */
  listenHttp(host: string, port: number, token: string): Promise<{ readonly host: string; readonly port: number }>;
  /** Ends event streams, stops listening, waits briefly for requests in flight, removes the socket file. */
  close(): Promise<void>;
  /** Open event streams (for health checks and tests). */
  stats(): { readonly openStreams: number };
}

/** A request Node's parser refused before any route saw it: bad bytes, headers too large, too slow. */
const clientErrorAnswer = (error: NodeJS.ErrnoException): { status: string; code: string; body: string } => {
  const [status, code, message] = error.code === 'HPE_HEADER_OVERFLOW' ? ['431 Request Header Fields Too Large', 'headers-too-large', 'The request headers are too large.']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? ['408 Request Timeout', 'body-timeout', 'The request did not arrive in time.']
      : ['400 Bad Request', 'bad-request', `The request is not valid HTTP (${error.code ?? error.message}).`];
  return { status, code, body: JSON.stringify({ error: { code, message, where: 'request' } }) };
};

/** How long close() lets requests in flight finish before cutting their connections. */
const closeGraceMs = 2000;

export const createDaemonServer = (gate: DaemonGate, options: DaemonServerOptions = {}): DaemonServer => {
  const settings = serverSettings(gate.config, options);
  const streams = new Set<() => void>();
  const holdOpen = (end: () => void): (() => void) => { streams.add(end); return () => { streams.delete(end); }; };
  const deps = (routes: readonly Route[]) => ({ gate, settings, routes, holdOpen });
  const servers: Server[] = [];
  const socketPaths: string[] = [];

  const newServer = (listener: Listener, routes: readonly Route[] = routeTable): Server => {
    const { authorize } = listener;
    // Node's own limits sit behind the daemon's body deadline, so the daemon's clearer answer comes first.
    const requestTimeout = settings.bodyTimeoutMs + 5000;
    const server = createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 30_000) }, createRequestHandler(deps(routes), listener));
    server.keepAliveTimeout = 5000;
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) { socket.destroy(); return; }
      const answer = clientErrorAnswer(error);
      socket.end(`HTTP/1.1 ${answer.status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`);
      // Only the socket's clients (already trusted by file mode) can write to the ledger before authenticating.
      if (authorize === null) void gate.recordRejection('http', `${answer.code}: ${error.message}`, null, false).catch(() => undefined);
    });
    servers.push(server);
    return server;
  };

  return {
    listenSocket: async (path) => {
      const server = newServer({ name: 'runtime-socket', authorize: null });
      await listenOnSocket(server, path);
      socketPaths.push(path);
    },

    listenHumanSocket: async (path, group = null) => {
      const server = newServer({ name: 'human-socket', authorize: null }, humanRouteTable);
      await listenOnSocket(server, path);
      socketPaths.push(path);
      humanSocketAccess(path, group);
    },

    listenHttp: async (host, port, token) => {
      if (!isLoopbackHost(host)) throw new NotLoopbackError(host);
      const server = newServer({ name: 'http', authorize: bearerCheck(token) });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => { server.off('error', reject); resolve(); });
      });
      const address = server.address() as AddressInfo;
      return { host: address.address, port: address.port };
    },

    close: async () => {
      for (const end of [...streams]) end();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), closeGraceMs);
        server.close(() => { clearTimeout(cut); resolve(); });
        server.closeIdleConnections();
      })));
      servers.length = 0;
      for (const path of socketPaths.splice(0)) try { unlinkSync(path); } catch { /* already gone */ }
    },

    stats: () => ({ openStreams: streams.size }),
  };
};
