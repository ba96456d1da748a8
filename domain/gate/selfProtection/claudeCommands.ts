/**
 * Claude Code's own command line (`claude`, `npx @anthropic-ai/claude-code`): the subcommands that change its MCP
 * servers, settings or installation, and the flags that start a Claude whose hooks (tollgate's) may not run or
 * whose questions nobody is asked. A plain `claude -p "…"` is a new agent whose calls reach this guard through
 * the same hooks, and is allowed.
 */
import { firstOperandIndex } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { lookedUpProgram, packageRunnerTarget, runtimeHomeAssignment } from './controlCommands.ts';

/** Subcommands that change Claude Code, each with the actions that only look ('*': all of them look). */
const claudeSubcommands: ReadonlyMap<string, ReadonlySet<string> | '*'> = new Map<string, ReadonlySet<string> | '*'>([
  ['mcp', new Set(['list', 'get'])],
  ['config', new Set(['get', 'list', 'ls'])],
  ['plugin', new Set(['list'])],
  ['plugins', new Set(['list'])],
  ['install', new Set()],
  ['update', new Set()],
  ['migrate-installer', new Set()],
  ['setup-token', new Set()],
  ['doctor', '*'],
]);

/** Flags whose Claude runs without its permission prompts or with other settings (`disableAllHooks`, no project hooks). */
// `--mcp-config FILE`: Claude starts the servers the file names, programs no hook sees start.
// `--plugin-dir DIR`: the plugins there bring their own hooks and MCP servers.
const unguardingFlags = new Set(['--dangerously-skip-permissions', '--allow-dangerously-skip-permissions', '--settings', '--setting-sources', '--mcp-config', '--plugin-dir']);
/** Permission modes that answer every question themselves. */
const unaskingModes = new Set(['bypassPermissions', 'dontAsk']);

// Options that take a value: their value is neither the prompt nor a subcommand.
const claudeGrammar = {
  shortWithValue: 'r',
  longWithValue: ['model', 'permission-mode', 'settings', 'setting-sources', 'mcp-config', 'allowedTools', 'allowed-tools', 'disallowedTools',
    'disallowed-tools', 'add-dir', 'append-system-prompt', 'system-prompt', 'output-format', 'input-format', 'resume', 'session-id', 'agents',
    'fallback-model', 'plugin-dir', 'permission-prompt-tool', 'max-turns'],
};

const claudeArguments = (command: SimpleCommand): readonly string[] | null => {
  const { program, programPath, args } = command;
  if (program === 'claude' || program === 'claude-code') return args;
  const looked = lookedUpProgram(programPath);
  if (looked === 'claude' || looked === 'claude-code') return args;
  if (/^(?:node|nodejs|bun)$/.test(program)) {
    const at = firstOperandIndex(args, 0);
    return args[at] !== undefined && /(?:^|\/)@anthropic-ai\/claude-code\/cli\.m?js$/.test(args[at]!) ? args.slice(at + 1) : null;
  }
  if (/(?:^|\/)@anthropic-ai\/claude-code\/cli\.m?js$/.test(programPath)) return args;
  const runner = packageRunnerTarget(command);
  return runner !== null && /^(?:claude-code|claude)(?:@.*)?$/.test(runner.name) ? runner.args : null;
};

/** A claude command that changes Claude Code, or starts one its hooks or prompts may not guard. */
export const isClaudeControl = (command: SimpleCommand): boolean => {
  const args = claudeArguments(command);
  if (args === null) return false;
  // `env CLAUDE_CONFIG_DIR=/tmp/c claude`, `HOME=/tmp/h claude`: its settings (and hooks) read from elsewhere.
  if (command.via.some((v) => /(?:^|\s)CLAUDE_CONFIG_DIR\+?=/.test(v) || runtimeHomeAssignment.test(v))) return true;
  // `claude -c`, `claude --resume ID`: it takes up the user's conversation.
  if (args.some((a) => a === '-c' || a === '-r' || a === '--continue' || a === '--resume' || a.startsWith('--resume='))) return true;
  const end = args.indexOf('--');
  const head = end < 0 ? args : args.slice(0, end);
  for (const [i, arg] of head.entries()) {
    const [name, inline] = arg.split(/=(.*)/s) as [string, string | undefined];
    if (unguardingFlags.has(name)) return true;
    if (name === '--permission-mode' && unaskingModes.has(inline ?? head[i + 1] ?? '')) return true;
  }
  if (head.includes('--help') || head.includes('-h')) return false;
  const at = firstOperandIndex(args, 0, claudeGrammar);
  const sub = args[at];
  const actions = sub === undefined ? undefined : claudeSubcommands.get(sub);
  if (actions === undefined) return false;
  if (actions === '*') return false;
  const action = args[firstOperandIndex(args, at + 1)];
  return action === undefined || !actions.has(action);
};

export const claudeControlExamples = {
  stops: [
    'claude mcp add evil -- /tmp/evil.sh', 'claude mcp remove tollgate', 'claude config set -g hooks {}', 'claude plugin install x', 'claude update',
    'claude --dangerously-skip-permissions -p "tidy up"', 'claude --plugin-dir /tmp/p', 'env -i claude -p hi', 'claude -p go --permission-mode bypassPermissions', 'claude -p go --permission-mode=dontAsk',
    'claude --settings /tmp/s.json -p go', 'claude --setting-sources user -p go', 'claude --mcp-config /tmp/m.json', 'npx @anthropic-ai/claude-code mcp add x y',
    'node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js config set x y', 'env CLAUDE_CONFIG_DIR=/tmp/c claude', 'HOME=/tmp/h claude',
    'claude -c', 'claude --resume abc', '$(which claude) mcp add x y',
  ],
  allows: ['claude -p "explain this repo"', 'claude mcp list', 'claude config get theme', 'claude --version', 'claude doctor', 'claude mcp add --help',
    'claude -p "update the docs" --permission-mode plan', 'claude -p -- --settings'],
};
