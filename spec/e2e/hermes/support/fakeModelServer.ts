/**
 * A fake OpenAI-compatible model on 127.0.0.1 that replays a script of turns.
 *
 * Hermes 0.19 talks to a `provider: custom` endpoint with the OpenAI SDK's chat-completions API: streaming (SSE)
 * when a stream consumer is attached, non-streaming in quiet/one-shot paths (agent/chat_completion_helpers.py). Both
 * are served. Each request that offers `tools` (the agent loop's requests) consumes the next scripted turn; requests
 * without tools (auxiliary tasks such as session titles, if any slip through the config) get a short fixed text and
 * consume nothing. Every request body is recorded so a test can read the `role: "tool"` message the model received
 * after a call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall { readonly tool: string; readonly args: Readonly<Record<string, unknown>>; readonly id?: string }

/**
 * One scripted model turn: a tool call (or several in one turn), or the final reply text. `before` runs when the
 * request for this turn has arrived and before it is answered (Hermes waits meanwhile): a test uses it to act
 * between two tool calls, for example to answer a tollgate question or stop the daemon.
 */
export type ScriptTurn = (ScriptedCall | { readonly calls: readonly ScriptedCall[] } | { readonly text: string }) & {
  readonly before?: (request: RecordedRequest) => Promise<void> | void;
};

export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[];
}

export interface RecordedRequest {
  readonly path: string;
  readonly stream: boolean;
  readonly hasTools: boolean;
  /** Index of the script turn this request was answered with; null for requests without tools. */
  readonly turn: number | null;
  readonly messages: readonly ChatMessage[];
  readonly body: Readonly<Record<string, unknown>>;
}

export interface FakeModel {
  /** Base URL to put in Hermes' `model.base_url` (ends in `/v1`). */
  readonly baseUrl: string;
  readonly model: string;
  /** Every chat-completions request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** How many script turns have been served. */
  readonly served: number;
  /** Errors thrown by a turn's `before` (the request was answered with HTTP 500). */
  readonly failures: readonly Error[];
  /** The `role: "tool"` messages the model received, in order of first appearance (by tool_call_id). */
  toolResults(): { readonly toolCallId: string; readonly content: string }[];
  /** Replaces the script (the next agent request gets its first turn). */
  load(script: readonly ScriptTurn[]): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_REQUESTS = 200;
export const EXHAUSTED_TEXT = 'fake model: script exhausted';
const AUXILIARY_TEXT = 'fake title';

const contentText = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String((part as { text: unknown }).text) : '')).join('');
  }
  return content == null ? '' : JSON.stringify(content);
};

const readBody = (req: IncomingMessage): Promise<string> => new Promise((done, fail) => {
  let size = 0;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) { fail(new Error('request body too large')); req.destroy(); return; }
    chunks.push(chunk);
  });
  req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
  req.on('error', fail);
});

interface Reply { readonly content: string | null; readonly toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }

const replyFor = (turn: ScriptTurn | undefined, turnIndex: number): Reply => {
  if (!turn) return { content: EXHAUSTED_TEXT, toolCalls: [] };
  if ('text' in turn) return { content: turn.text, toolCalls: [] };
  const calls = 'calls' in turn ? turn.calls : [turn];
  return {
    content: null,
    toolCalls: calls.map((call, i) => ({
      id: call.id ?? `call_t${turnIndex}_${i}`,
      type: 'function' as const,
      function: { name: call.tool, arguments: JSON.stringify(call.args) },
    })),
  };
};

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const sendCompletion = (res: ServerResponse, model: string, reply: Reply, stream: boolean): void => {
  const id = `chatcmpl-fake-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const finish = reply.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (!stream) {
    sendJson(res, 200, {
      id, object: 'chat.completion', created, model,
      choices: [{
        index: 0, finish_reason: finish,
        message: { role: 'assistant', content: reply.content, ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}) },
      }],
      usage,
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  const chunk = (delta: unknown, finishReason: string | null, extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
  chunk({ role: 'assistant', content: reply.toolCalls.length > 0 ? null : '' }, null);
  if (reply.content) chunk({ content: reply.content }, null);
  reply.toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }, null);
  });
  chunk({}, finish);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
};

export const startFakeModel = async (initialScript: readonly ScriptTurn[] = [], model = 'fake-model'): Promise<FakeModel> => {
  let script = [...initialScript];
  let served = 0;
  const requests: RecordedRequest[] = [];
  const failures: Error[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && /\/models\/?$/.test(path)) {
      sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'tollgate-e2e', context_length: 131072 }] });
      return;
    }
    if (req.method === 'POST' && /\/chat\/completions\/?$/.test(path)) {
      if (requests.length >= MAX_REQUESTS) { sendJson(res, 429, { error: { message: 'fake model: request limit reached', type: 'rate_limit' } }); return; }
      let body: Record<string, unknown>;
      try { body = JSON.parse(await readBody(req)) as Record<string, unknown>; } catch (error) {
        sendJson(res, 400, { error: { message: `fake model: bad body: ${(error as Error).message}` } });
        return;
      }
      const stream = body.stream === true;
      const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
      const messages = Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [];
      const turn = hasTools ? served : null;
      const recorded: RecordedRequest = { path, stream, hasTools, turn, messages, body };
      requests.push(recorded);
      if (!hasTools) { sendCompletion(res, model, { content: AUXILIARY_TEXT, toolCalls: [] }, stream); return; }
      const scripted = script[served];
      served += 1;
      if (scripted?.before) {
        try { await scripted.before(recorded); } catch (error) {
          failures.push(error as Error);
          sendJson(res, 500, { error: { message: `fake model: the test's before() for turn ${turn} failed: ${String(error)}` } });
          return;
        }
      }
      sendCompletion(res, model, replyFor(scripted, turn ?? 0), stream);
      return;
    }
    sendJson(res, 404, { error: { message: `fake model: no route ${req.method} ${path}` } });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });
  await new Promise<void>((done, fail) => { server.once('error', fail); server.listen(0, '127.0.0.1', () => done()); });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model,
    requests,
    get served() { return served; },
    failures,
    toolResults() {
      const seen = new Map<string, string>();
      for (const request of requests) {
        for (const message of request.messages) {
          if (message.role === 'tool' && typeof message.tool_call_id === 'string' && !seen.has(message.tool_call_id)) {
            seen.set(message.tool_call_id, contentText(message.content));
          }
        }
      }
      return [...seen].map(([toolCallId, content]) => ({ toolCallId, content }));
    },
    load(next) { script = [...next]; served = 0; },
    close: () => new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
};
