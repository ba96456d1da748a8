// `tollgate hook --hermes | --claude`: the thin client a runtime starts once per event. It reads the event JSON on
// stdin, asks the daemon over its Unix socket, prints the runtime's answer, and exits 2 for a block. Every failure
// (daemon unreachable, too slow, a garbage answer, bad stdin, a misconfigured hook, a bug here) is a block too.
//
// Plain JavaScript with node built-ins only: bin/tollgate.mjs loads this file before tsx, so a hook costs about
// one bare Node start. Formats relied on (see adapters/hooks/README.md):
//   Hermes shell hooks (hermes-agent 0.19, agent/shell_hooks.py): stdin {hook_event_name, tool_name, tool_input,
//     session_id, cwd, extra}; stdout {"action":"block","message":...} blocks a pre_tool_call, anything else lets it
//     run; 0.19 only logs the exit code, newer versions also block on exit 2.
//   Claude Code hooks: stdin {session_id, hook_event_name, tool_name, tool_input, tool_use_id, prompt, ...}; exit 2
//     blocks and stderr is the reason Claude reads (stdout is then ignored); on exit 0 stdout may carry
//     {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow|deny|ask",
//     "permissionDecisionReason":...}}. Any other exit code is a non-blocking error, so this client never uses one.
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { visibleJsonText, visibleText } from '../../domain/encoding/visibleText.mjs';
import { mapClaudeToolCall } from './claudeToolMap.mjs';

export const defaultTimeoutMs = 5000;
export const defaultSocket = './data/tollgate.sock';
const maxStdinBytes = 64 * 1024 * 1024;

export const hookHelp = `Usage: tollgate hook (--hermes | --claude) [options] < event.json

Answers one runtime hook event: reads the event JSON on stdin, asks the tollgate daemon, prints the runtime's
answer and exits 0 (go on) or 2 (block). Anything that goes wrong — daemon unreachable or slower than
--timeout-ms, a garbage answer, stdin that is not JSON — is a block (exit 2, reason on stderr).

Options:
  --hermes              Hermes Agent shell hook (hooks.pre_tool_call / hooks.pre_llm_call in config.yaml)
  --claude              Claude Code hook (PreToolUse, and UserPromptSubmit so sessions start with the user's words)
  --socket <path>       daemon socket (default: $TOLLGATE_SOCKET, then server.socket of the configuration)
  -c, --config <file>   tollgate configuration to read server.socket from (default: $TOLLGATE_CONFIG, ./tollgate.yaml)
  --timeout-ms <n>      give up and block after this many milliseconds (default: ${defaultTimeoutMs})
  --on-allow <how>      Claude Code, when tollgate allows: "defer" (default: no decision, Claude Code's own
                        permission rules and prompts still apply) or "allow" (permissionDecision allow)
  --on-ask <how>        Claude Code, when tollgate asks a human: "block" (default: deny, naming the question to
                        a human answers outside the agent: \`tollgate approve <id>\`; the retried call then runs once) or "prompt"
                        (permissionDecision ask: Claude Code asks its user; tollgate's question stays open and
                        expires unanswered)
  -h, --help            this help

Examples:
  echo '{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"rm -rf /"},"session_id":"s1"}' \\
    | tollgate hook --hermes --socket /srv/tollgate/data/tollgate.sock
  # Claude Code (.claude/settings.json):
  #   "PreToolUse":       [{"matcher": "*", "hooks": [{"type": "command", "command": "tollgate hook --claude --socket /abs/tollgate.sock"}]}]
  #   "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "tollgate hook --claude --socket /abs/tollgate.sock"}]}]
`;

/** A mistake in how the hook was called. The runtime still gets a block. */
export class HookUsageError extends Error {}

/**
 * @typedef {'hermes' | 'claude'} HookRuntime
 * @typedef {{ runtime: HookRuntime | null, socket: string | null, config: string | null, timeoutMs: number,
 *   onAllow: 'defer' | 'allow', onAsk: 'block' | 'prompt', help: boolean }} HookOptions
 */

/** @param {readonly string[]} argv the arguments after `hook` @returns {HookOptions} */
export const parseHookArgs = (argv) => {
  /** @type {HookOptions} */
  const options = { runtime: null, socket: null, config: null, timeoutMs: defaultTimeoutMs, onAllow: 'defer', onAsk: 'block', help: false };
  /** @param {number} i @param {string} name */
  const valueAt = (i, name) => {
    const value = argv[i];
    if (value === undefined || value === '') throw new HookUsageError(`${name} needs a value`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = /** @type {string} */ (argv[i]);
    let inline = null;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    if (eq > 0) { inline = arg.slice(eq + 1); arg = arg.slice(0, eq); }
    const take = () => (inline !== null ? inline : valueAt(++i, arg));
    switch (arg) {
      case '--hermes': case '--claude': {
        const runtime = arg === '--hermes' ? 'hermes' : 'claude';
        if (options.runtime !== null && options.runtime !== runtime) throw new HookUsageError('choose one of --hermes and --claude');
        options.runtime = runtime;
        break;
      }
      case '--socket': options.socket = take(); break;
      case '-c': case '--config': options.config = take(); break;
      case '--timeout-ms': {
        const raw = take();
        const ms = Number(raw);
        if (!/^\d+$/.test(raw) || ms < 1 || ms > 600_000) throw new HookUsageError(`--timeout-ms is a whole number of milliseconds from 1 to 600000, not "${raw}"`);
        options.timeoutMs = ms;
        break;
      }
      case '--on-allow': {
        const how = take();
        if (how !== 'defer' && how !== 'allow') throw new HookUsageError(`--on-allow is "defer" or "allow", not "${how}"`);
        options.onAllow = how;
        break;
      }
      case '--on-ask': {
        const how = take();
        if (how !== 'block' && how !== 'prompt') throw new HookUsageError(`--on-ask is "block" or "prompt", not "${how}"`);
        options.onAsk = how;
        break;
      }
      case '-h': case '--help': options.help = true; break;
      default: throw new HookUsageError(`unknown argument "${arg}" (see tollgate hook --help)`);
    }
  }
  if (options.runtime === null && !options.help) throw new HookUsageError('say which runtime calls the hook: --hermes or --claude');
  return options;
};

/**
 * Where the daemon listens: --socket, $TOLLGATE_SOCKET, server.socket of the configuration file (the `yaml`
 * package is loaded only when there is one), else ./data/tollgate.sock. Relative paths are taken from `cwd`.
 * @param {{ socket: string | null, config: string | null }} options
 * @param {NodeJS.ProcessEnv} env @param {string} cwd
 * @returns {Promise<string>}
 */
export const resolveSocket = async (options, env = process.env, cwd = process.cwd()) => {
  if (options.socket !== null) return resolve(cwd, options.socket);
  const fromEnv = env['TOLLGATE_SOCKET'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(cwd, fromEnv);
  const fromConfigEnv = env['TOLLGATE_CONFIG'] === '' ? undefined : env['TOLLGATE_CONFIG'];
  const configFile = options.config ?? fromConfigEnv ?? (existsSync(resolve(cwd, 'tollgate.yaml')) ? 'tollgate.yaml' : null);
  if (configFile === null) return resolve(cwd, defaultSocket);
  const path = isAbsolute(configFile) ? configFile : resolve(cwd, configFile);
  let text;
  try { text = readFileSync(path, 'utf8'); } catch (error) {
    throw new Error(`cannot read the tollgate configuration ${path}: ${/** @type {Error} */ (error).message}`);
  }
  const { parse } = await import('yaml');
  /** @type {unknown} */
  let config;
  try { config = parse(text); } catch (error) {
    throw new Error(`${path} is not valid YAML: ${/** @type {Error} */ (error).message}`);
  }
  const server = isObject(config) ? config['server'] : undefined;
  const socket = isObject(server) ? server['socket'] : undefined;
  if (socket === undefined || socket === null) return resolve(cwd, defaultSocket);
  if (typeof socket !== 'string' || socket === '') throw new Error(`${path}: server.socket must be a path`);
  return resolve(cwd, socket);
};

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @param {unknown} value @returns {string | null} */
const nonEmptyString = (value) => (typeof value === 'string' && value.trim() !== '' ? value : null);

/**
 * One JSON request to the daemon over its Unix socket: a minimal HTTP/1.1 exchange on a raw socket
 * (`Connection: close`, the answer read to the end), which starts several milliseconds faster than node:http.
 * Resolves with the status and body; rejects on a connection error or an answer that is not HTTP.
 * The caller's deadline bounds the time.
 * @param {string} socketPath @param {string} path @param {unknown} body
 * @returns {Promise<{ status: number, text: string }>}
 */
export const postToDaemon = (socketPath, path, body) => new Promise((done, fail) => {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const head = `POST ${path} HTTP/1.1\r\nHost: tollgate\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`;
  const socket = connect(socketPath);
  /** @type {Buffer[]} */
  const chunks = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', fail);
  socket.on('end', () => {
    try { done(parseHttpResponse(Buffer.concat(chunks))); } catch (error) { fail(error); }
  });
  socket.write(head);
  socket.end(payload);
});

/**
 * The status and body of a complete HTTP/1.1 response (Content-Length, chunked, or read to the end).
 * @param {Buffer} raw @returns {{ status: number, text: string }}
 */
export const parseHttpResponse = (raw) => {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error('the daemon closed the connection without a complete answer');
  const lines = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (status === null) throw new Error('the daemon did not answer in HTTP');
  /** @type {Record<string, string>} */
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    /** @type {Buffer[]} */
    const parts = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      if (eol < 0) throw new Error('the daemon sent a truncated chunked answer');
      const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (!Number.isFinite(size)) throw new Error('the daemon sent a malformed chunked answer');
      if (size === 0) break;
      if (eol + 2 + size > body.length) throw new Error('the daemon sent a truncated chunked answer');
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (!Number.isInteger(length) || length > body.length) throw new Error('the daemon sent a truncated answer');
    body = body.subarray(0, length);
  }
  return { status: Number(status[1]), text: body.toString('utf8') };
};

/**
 * The daemon's answer to a tool call, reduced to what a runtime can act on. Anything unexpected is a block.
 * @typedef {{ kind: 'allow', message: string, reasons: string[] }
 *   | { kind: 'ask', message: string, reasons: string[], approvalId: string, promptText?: string }
 *   | { kind: 'block', message: string, reasons: string[] }} ToolAnswer
 * @param {{ status: number, text: string }} reply @returns {ToolAnswer}
 */
export const readToolAnswer = (reply) => {
  /** @type {unknown} */
  let json;
  try { json = JSON.parse(reply.text); } catch {
    return { kind: 'block', message: `Blocked by tollgate: the daemon's answer is not JSON (HTTP ${reply.status}); nothing runs that was not checked.`, reasons: ['hook:bad-answer'] };
  }
  if (!isObject(json)) return { kind: 'block', message: `Blocked by tollgate: the daemon's answer is not a JSON object (HTTP ${reply.status}).`, reasons: ['hook:bad-answer'] };
  const reasons = Array.isArray(json['reasons']) ? json['reasons'].filter((r) => typeof r === 'string') : [];
  const message = nonEmptyString(json['message']);
  const action = json['action'];
  if (reply.status === 200 && action === 'allow') return { kind: 'allow', message: message ?? 'Allowed by tollgate.', reasons };
  const approvalId = nonEmptyString(json['approval_id']) ?? nonEmptyString(json['approvalId']);
  if (reply.status === 200 && (action === 'ask' || action === 'approve') && approvalId !== null) {
    const promptText = nonEmptyString(json['promptText']) ?? nonEmptyString(json['prompt_text']);
    return { kind: 'ask', message: message ?? 'tollgate asks a human to approve this call.', reasons, approvalId, ...(promptText === null ? {} : { promptText }) };
  }
  if (action === 'block' && message !== null) return { kind: 'block', message, reasons: reasons.length > 0 ? reasons : ['hook:blocked'] };
  return { kind: 'block', message: `Blocked by tollgate: the daemon gave no usable decision (HTTP ${reply.status}${message === null ? '' : `: ${message}`}).`, reasons: ['hook:bad-answer'] };
};

/** @param {ToolAnswer} answer @param {string} advice */
const withSessionAdvice = (answer, advice) => (answer.reasons.includes('session:unknown-session') ? `${answer.message} ${advice}` : answer.message);

/**
 * @typedef {{ exitCode: 0 | 2, stdout: string, stderr: string }} HookResult
 */

/** @param {HookRuntime | null} runtime @param {string} message @returns {HookResult} */
export const blockResult = (runtime, message) => (runtime === 'claude'
  ? { exitCode: 2, stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: message } })}\n`, stderr: `${visibleText(message)}\n` }
  : { exitCode: 2, stdout: `${JSON.stringify({ action: 'block', message })}\n`, stderr: `${visibleText(message)}\n` });

/** @param {string} [stdout] @returns {HookResult} */
const goOn = (stdout = '{}') => ({ exitCode: 0, stdout: `${stdout}\n`, stderr: '' });

// ---------------------------------------------------------------------------------------------------------------
// Hermes shell hooks

/**
 * The keyword arguments Hermes passed to the hook, rebuilt from the shell-hook payload (Hermes moves everything but
 * tool_name, args and session_id into `extra`), keeping only what the daemon reads: `conversation_history` and tool
 * results can be megabytes and would only make the request slower or too large.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const hermesForwardedKeys = {
  pre_tool_call: ['tool_call_id', 'task_id', 'turn_id', 'parent_session_id'],
  pre_llm_call: ['user_message', 'sender_id', 'platform', 'parent_session_id', 'is_first_turn', 'turn_id', 'task_id', 'model'],
  post_tool_call: ['tool_call_id', 'status', 'duration_ms'],
  on_session_start: [], on_session_end: [], subagent_start: ['parent_session_id', 'child_session_id'], subagent_stop: ['parent_session_id', 'child_session_id'],
};

const hermesSessionAdvice = 'Register `tollgate hook --hermes` for hooks.pre_llm_call too (or use the tollgate plugin), so tollgate sees what the user asked.';

// As the plugin does (adapters/hermes/plugin/tollgate/core.py `_user_text`): a message too large to send whole
// (the daemon refuses bodies over 1 MiB) loses the context Hermes appended after the typed words, else its tail.
const maxUserMessageChars = 100_000;
const trailingContextMarkers = ['\n\n--- Context Warnings ---\n', '\n\n--- Attached Context ---\n\n'];

/** @param {unknown} message @returns {{ user_message: string, user_message_truncated?: true }} */
const userWords = (message) => {
  let text = typeof message === 'string' ? message
    : Array.isArray(message) ? message.map((part) => (typeof part === 'string' ? part
      : isObject(part) && (part['type'] === 'text' || part['type'] === 'input_text') && typeof part['text'] === 'string' ? part['text'] : null))
      .filter((part) => part !== null).join('\n\n')
      : '';
  if (text.length <= maxUserMessageChars) return { user_message: text };
  for (const marker of trailingContextMarkers) {
    const at = text.indexOf(marker);
    if (at >= 0) text = text.slice(0, at);
  }
  if (text.length <= maxUserMessageChars) return { user_message: text };
  return { user_message: text.slice(0, maxUserMessageChars), user_message_truncated: true };
};

/**
 * What the agent hears about a question (the same words as adapters/http/replies.ts): a human decides it outside
 * the agent. Never the question's id nor the command that answers it: the model must not learn how to approve itself.
 */
const humanAskedNotice = 'A human has been asked to approve it outside this conversation; it can run only after they do. Wait for the user, then try again.';

/** @param {Record<string, unknown>} event @param {string} socket @param {NodeJS.ProcessEnv} env @returns {Promise<HookResult>} */
const hermesHook = async (event, socket, env) => {
  const hook = nonEmptyString(event['hook_event_name']) ?? (nonEmptyString(event['tool_name']) !== null ? 'pre_tool_call' : null);
  if (hook === null) return blockResult('hermes', 'Blocked by tollgate: the hook event names neither hook_event_name nor tool_name.');
  if (!/^[a-z_]{1,64}$/.test(hook)) return blockResult('hermes', `Blocked by tollgate: unknown hook event ${JSON.stringify(hook.slice(0, 64))}.`);
  const extra = isObject(event['extra']) ? event['extra'] : {};
  const keys = hermesForwardedKeys[hook] ?? [];
  /** @type {Record<string, unknown>} */
  const body = { session_id: event['session_id'] };
  for (const key of keys) if (extra[key] !== undefined) body[key] = extra[key];
  if (hook === 'pre_llm_call') Object.assign(body, userWords(body['user_message']));
  if (hook === 'pre_tool_call' || hook === 'post_tool_call') {
    body['tool_name'] = event['tool_name'];
    if (hook === 'pre_tool_call') {
      body['args'] = event['tool_input'] === null || event['tool_input'] === undefined ? {} : event['tool_input'];
      // A shell hook can only block: an ask is answered with a block naming the question (retry after approval).
      body['approve_directive'] = false;
      // Where the terminal runs: Hermes' TERMINAL_CWD (inherited by this hook), else the payload's `cwd` (Hermes'
      // process cwd); relative paths resolve against it.
      const cwd = nonEmptyString(env['TERMINAL_CWD']) ?? nonEmptyString(event['cwd']);
      if (cwd !== null) body['cwd'] = cwd;
    }
  }
  const reply = await postToDaemon(socket, `/v1/hooks/hermes/${hook}`, body);
  if (hook !== 'pre_tool_call') {
    if (reply.status === 200) return goOn();
    // A session the plugin opened is the plugin's to speak for (the plugin and this hook both guarding): the daemon
    // refused and recorded this copy, and there is nothing to block.
    if (reply.status === 403 && /"code":"channel-refused"/.test(reply.text))
      return { exitCode: 0, stdout: '{}\n', stderr: `tollgate: the ${hook} event was not recorded from this hook: ${visibleText(reply.text.slice(0, 300))}\n` };
    return { exitCode: 2, stdout: '{}\n', stderr: `tollgate could not record the ${hook} event (HTTP ${reply.status}): ${visibleText(reply.text.slice(0, 500))}\n` };
  }
  const answer = readToolAnswer(reply);
  if (answer.kind === 'allow') return goOn();
  if (answer.kind === 'ask')
    return blockResult('hermes', `${answer.message} ${humanAskedNotice}`);
  return blockResult('hermes', withSessionAdvice(answer, hermesSessionAdvice));
};

// ---------------------------------------------------------------------------------------------------------------
// Claude Code hooks

const claudeSessionAdvice = 'Configure `tollgate hook --claude` for the UserPromptSubmit event too, so tollgate sees what the user asked.';

/** @param {string} decision @param {string} reason */
const claudeDecision = (decision, reason) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } });

/**
 * What Claude Code's permission prompt shows beside the call: the daemon's reason and its rendering of the call, both
 * visible (an escape sequence in the command shows as `\x1b`). The daemon's rendering is already escaped; the pass
 * here escapes only what may still be raw, so its backslashes are not doubled.
 * @param {{ message: string, approvalId: string, promptText?: string }} answer
 */
const claudeAskReason = (answer) =>
  `tollgate: ${visibleText(answer.message)} (tollgate question ${visibleText(answer.approvalId)})${answer.promptText === undefined ? '' : `: ${visibleJsonText(answer.promptText)}`}`;

/** @param {Record<string, unknown>} event @param {string} socket @param {HookOptions} options @returns {Promise<HookResult>} */
const claudeHook = async (event, socket, options) => {
  const hook = nonEmptyString(event['hook_event_name']) ?? (nonEmptyString(event['tool_name']) !== null ? 'PreToolUse' : null);
  if (hook === 'UserPromptSubmit') {
    const prompt = event['prompt'];
    if (typeof prompt !== 'string') return blockResult('claude', 'Blocked by tollgate: the UserPromptSubmit event has no prompt text.');
    const reply = await postToDaemon(socket, '/v1/messages', { session_id: event['session_id'], text: prompt });
    if (reply.status === 200) return goOn();
    return blockResult('claude', `tollgate could not record this prompt (HTTP ${reply.status}): ${reply.text.slice(0, 500)}`);
  }
  if (hook !== 'PreToolUse') {
    // Events with nothing to decide (PostToolUse, Stop, ...) pass; a hook wired to them by mistake blocks nothing.
    if (hook !== null) return goOn();
    return blockResult('claude', 'Blocked by tollgate: the hook event names neither hook_event_name nor tool_name.');
  }
  const toolName = nonEmptyString(event['tool_name']);
  if (toolName === null) return blockResult('claude', 'Blocked by tollgate: the PreToolUse event has no tool_name.');
  const { tool, args } = mapClaudeToolCall(toolName, event['tool_input']);
  /** @type {Record<string, unknown>} */
  const body = { session_id: event['session_id'], tool, args, resumption: options.onAsk === 'prompt' ? 'held' : 'retry' };
  const callId = nonEmptyString(event['tool_use_id']);
  if (callId !== null) body['call_id'] = callId;
  // The session's working directory: the floor resolves relative paths (`rm -rf data`) against it.
  const cwd = nonEmptyString(event['cwd']);
  if (cwd !== null) body['cwd'] = cwd;
  const answer = readToolAnswer(await postToDaemon(socket, '/v1/tool-calls', body));
  if (answer.kind === 'allow') return options.onAllow === 'allow' ? goOn(claudeDecision('allow', `tollgate: ${answer.message}`)) : goOn();
  if (answer.kind === 'ask') {
    if (options.onAsk === 'prompt') return goOn(claudeDecision('ask', claudeAskReason(answer)));
    return blockResult('claude', `${answer.message} ${humanAskedNotice}`);
  }
  return blockResult('claude', withSessionAdvice(answer, claudeSessionAdvice));
};

// ---------------------------------------------------------------------------------------------------------------

/**
 * Answers one event. Never rejects: every failure is a block for the runtime in `options` (Hermes' format when
 * the runtime is unknown, which Claude Code also reads as a block through exit code 2 and stderr).
 * @param {{ options: HookOptions, stdin: string, env?: NodeJS.ProcessEnv, cwd?: string }} input
 * @returns {Promise<HookResult>}
 */
export const answerEvent = async ({ options, stdin, env = process.env, cwd = process.cwd() }) => {
  const runtime = options.runtime;
  try {
    /** @type {unknown} */
    let event;
    try { event = JSON.parse(stdin); } catch {
      return blockResult(runtime, `Blocked by tollgate: the hook's input is not valid JSON (${stdin.trim() === '' ? 'stdin was empty' : `${Buffer.byteLength(stdin)} bytes`}).`);
    }
    if (!isObject(event)) return blockResult(runtime, 'Blocked by tollgate: the hook\'s input is not a JSON object.');
    let socket;
    try { socket = await resolveSocket(options, env, cwd); } catch (error) {
      return blockResult(runtime, `Blocked by tollgate: ${/** @type {Error} */ (error).message}`);
    }
    try {
      return runtime === 'claude' ? await claudeHook(event, socket, options) : await hermesHook(event, socket, env);
    } catch (error) {
      return blockResult(runtime, unreachableMessage(socket, error));
    }
  } catch (error) {
    return blockResult(runtime, `Blocked by tollgate: the hook failed (${/** @type {Error} */ (error).message}).`);
  }
};

/** @param {string} socket @param {unknown} error */
const unreachableMessage = (socket, error) => {
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  const why = code === 'ENOENT' || code === 'ECONNREFUSED' ? 'no daemon listens there' : /** @type {Error} */ (error).message;
  return `Blocked by tollgate: the daemon at ${socket} cannot be reached (${why}); nothing runs that was not checked. Start it with \`tollgate serve\`.`;
};

/** @param {NodeJS.ReadableStream} stream @returns {Promise<string>} */
const readAll = (stream) => new Promise((done, fail) => {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  stream.on('data', (chunk) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxStdinBytes) { fail(new Error(`the hook's input is larger than ${maxStdinBytes} bytes`)); return; }
    chunks.push(buffer);
  });
  stream.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
  stream.on('error', fail);
});

/**
 * Reads stdin, answers within the deadline, writes and exits. Used by bin/tollgate.mjs (fast path) and by the
 * `hook` command of the CLI. `options` given: already parsed (the CLI resolved the configuration).
 * @param {readonly string[]} argv the arguments after `hook`
 * @param {{ options?: HookOptions }} [given]
 * @returns {Promise<void>} settles once the answer is on its way; the process then exits with its code
 */
export const runHookMain = async (argv, given = {}) => {
  /** @type {HookRuntime | null} */
  let runtime = argv.includes('--claude') ? 'claude' : argv.includes('--hermes') ? 'hermes' : null;
  let finished = false;
  /** @param {HookResult} result */
  const finish = (result) => {
    if (finished) return;
    finished = true;
    process.stdout.write(result.stdout, () => {
      if (result.stderr === '') process.exit(result.exitCode);
      else process.stderr.write(result.stderr, () => process.exit(result.exitCode));
    });
  };
  process.on('uncaughtException', (error) => finish(blockResult(runtime, `Blocked by tollgate: the hook failed (${error.message}).`)));
  process.on('unhandledRejection', (error) => finish(blockResult(runtime, `Blocked by tollgate: the hook failed (${String(error)}).`)));
  /** @type {HookOptions} */
  let options;
  try {
    options = given.options ?? parseHookArgs(argv);
  } catch (error) {
    finish(blockResult(runtime, `Blocked by tollgate: the hook is misconfigured: ${/** @type {Error} */ (error).message}`));
    return;
  }
  runtime = options.runtime;
  if (options.help) {
    process.stdout.write(hookHelp, () => process.exit(0));
    return;
  }
  const timer = setTimeout(() => finish(blockResult(runtime, `Blocked by tollgate: no decision within ${options.timeoutMs} ms (daemon too slow or stdin never closed); nothing runs that was not checked.`)), options.timeoutMs);
  let stdin;
  try { stdin = await readAll(process.stdin); } catch (error) {
    clearTimeout(timer);
    finish(blockResult(runtime, `Blocked by tollgate: cannot read the hook's input (${/** @type {Error} */ (error).message}).`));
    return;
  }
  const result = await answerEvent({ options, stdin });
  clearTimeout(timer);
  finish(result);
};
