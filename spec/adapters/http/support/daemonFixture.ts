/**
 * A real daemon for one test: a gate on a memory ledger, the HTTP layer on a Unix socket in a temp folder and,
 * when asked, on loopback TCP port 0 with a token. `request` speaks to the socket.
 */
import type { Gate } from '../../../../ops/gate/gate.ts';
import { createDaemonServer, type DaemonServer, type DaemonServerOptions } from '../../../../adapters/http/daemonServer.ts';
import type { DaemonGate } from '../../../../adapters/http/gatePort.ts';
import type { RecordedEvent } from '../../../../adapters/ledger/port.ts';
import { openTestGate, type TestGateOptions } from '../../../support/openTestGate.ts';
import { requestOverSocket, type DaemonResponse, type RequestBody } from '../../../support/httpClient.ts';
import { createTempDir, type TempDir } from '../../../support/tempDir.ts';

export interface Daemon {
  readonly gate: Gate;
  readonly server: DaemonServer;
  readonly socket: string;
  /** The human channel's socket (server.human_socket): answers there are recorded as answered by `human-socket`. */
  readonly humanSocket: string;
  readonly dir: TempDir;
  /** Set when the fixture was started with `http: true`. */
  readonly http: { readonly host: string; readonly port: number; readonly token: string } | null;
  request(method: string, path: string, body?: RequestBody, headers?: Record<string, string>): Promise<DaemonResponse>;
  /** A request on the human socket. */
  human(method: string, path: string, body?: RequestBody): Promise<DaemonResponse>;
  /** Events of these types in the ledger, oldest first. */
  recorded(...types: string[]): Promise<RecordedEvent[]>;
  stop(): Promise<void>;
}

export interface DaemonFixtureOptions {
  readonly gate?: TestGateOptions;
  readonly server?: DaemonServerOptions;
  readonly http?: boolean;
  /** Wraps the real gate (a slow or failing double for one method). */
  readonly wrap?: (gate: Gate) => DaemonGate;
}

/** A command the approvals layer asks a human about (dangerous, not hardline). */
export const askingCommand = 'rm -r build/';

export const testToken = 'test-token-0123456789abcdef';

export const startDaemon = async (options: DaemonFixtureOptions = {}): Promise<Daemon> => {
  const dir = await createTempDir('tollgate-http');
  const gate = await openTestGate(options.gate);
  const server = createDaemonServer(options.wrap ? options.wrap(gate) : gate, { version: '9.9.9-test', ...options.server });
  const socket = dir.file('tollgate.sock');
  await server.listenSocket(socket);
  const humanSocket = dir.file('human/human.sock');
  await server.listenHumanSocket(humanSocket);
  const http = options.http ? { ...(await server.listenHttp('127.0.0.1', 0, testToken)), token: testToken } : null;
  return {
    gate, server, socket, humanSocket, dir, http,
    request: (method, path, body, headers) => requestOverSocket(socket, method, path, body, headers),
    human: (method, path, body) => requestOverSocket(humanSocket, method, path, body),
    recorded: async (...types) => gate.ledger.readAll(types.length ? { filter: { types } } : {}),
    stop: async () => {
      await server.close();
      await gate.close();
      await dir.remove();
    },
  };
};

/** A gate that forwards everything to the real one, except the methods given. */
export const delegatingGate = (gate: Gate, overrides: Partial<Pick<DaemonGate, 'toolCall' | 'output' | 'userMessage' | 'answer'>>): DaemonGate => ({
  userMessage: overrides.userMessage ?? ((input, caller) => gate.userMessage(input, caller)),
  sessionSeen: (input, caller) => gate.sessionSeen(input, caller),
  subagentStarted: (input, caller) => gate.subagentStarted(input, caller),
  toolCall: overrides.toolCall ?? ((input) => gate.toolCall(input)),
  output: overrides.output ?? ((input) => gate.output(input)),
  answer: overrides.answer ?? ((id, answer, by, caller, surface) => gate.answer(id, answer, by, caller, surface)),
  waitForAnswer: (id, ms) => gate.waitForAnswer(id, ms),
  toolResult: (input) => gate.toolResult(input),
  endSession: (id, caller) => gate.endSession(id, caller),
  registerRuntime: (input) => gate.registerRuntime(input),
  revokeAllowlistEntry: (grantId, caller) => gate.revokeAllowlistEntry(grantId, caller),
  get runtimes() { return gate.runtimes; },
  recordRejection: (endpoint, problem, sessionId, toolCall) => gate.recordRejection(endpoint, problem, sessionId, toolCall),
  get projections() { return gate.projections; },
  get ledger() { return gate.ledger; },
  get config() { return gate.config; },
});

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the check passes (or fails the test after `ms`). */
export const eventually = async <T>(check: () => T | Promise<T>, ms = 3000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    try { return await check(); } catch (error) {
      if (Date.now() > until) throw error;
      await sleep(10);
    }
  }
};

/** Starts a Hermes session the way the plugin does: the user's message comes first. */
export const startSession = async (daemon: Daemon, sessionId: string, text = 'Please tidy up the build folder.'): Promise<void> => {
  const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_llm_call', { session_id: sessionId, user_message: text, platform: 'cli', sender_id: 'u1' });
  if (reply.status !== 200) throw new Error(`pre_llm_call answered ${reply.status}: ${reply.text}`);
};

export const preToolCall = (daemon: Daemon, sessionId: string, command: string, callId?: string): Promise<DaemonResponse> =>
  daemon.request('POST', '/v1/hooks/hermes/pre_tool_call', { session_id: sessionId, tool_name: 'terminal', args: { command }, tool_call_id: callId ?? null });
