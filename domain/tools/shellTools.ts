/**
 * Which tools run a shell command line, and in which argument. Built-in Hermes tools are listed here;
 * `tools.<name>.shell_arg` in the configuration adds more (an MCP shell server, a custom runner).
 */
export interface ShellToolRow {
  readonly tool: string;
  readonly argument: string;
  /** Calls that run no line: this argument has one of these values. Any other value (an unknown one too) runs one. */
  readonly unless?: { readonly argument: string; readonly values: readonly string[] };
  /** The line runs in a shell whose folder the gate does not follow (its `cd`s are unseen): where it is, is lost. */
  readonly directoryUnknown?: boolean;
  readonly why: string;
}

export const builtInShellTools: readonly ShellToolRow[] = [
  { tool: 'terminal', argument: 'command', why: "Hermes' terminal tool runs its `command` through a shell." },
  {
    // Hermes 0.19 tools/process_registry.py: `write` sends `data` raw, `submit` with Enter; the rest send nothing.
    tool: 'process', argument: 'data', unless: { argument: 'action', values: ['list', 'poll', 'log', 'wait', 'kill', 'close'] },
    directoryUnknown: true,
    why: "Hermes' process tool writes `data` to the stdin of a process `terminal` started in the background; that is usually a shell, so the text is a command line.",
  },
];

/**
 * Argument names that hold a command line in an MCP tool nobody mapped (`mcp_shell_run {command}`): the gate cannot
 * know what the server does with it, so it judges the text as a line that runs, in a folder it does not know.
 */
export const mcpCommandArguments: readonly string[] = ['command', 'cmd', 'command_line', 'commandLine', 'shell_command', 'shellCommand', 'script'];
const mcpTool = /^mcp_/;
const mcpCommandArgument = (tool: string, args: Readonly<Record<string, unknown>>): string | null =>
  mcpTool.test(tool) ? mcpCommandArguments.find((a) => typeof args[a] === 'string') ?? null : null;

/** The argument holding the command line, or null when the tool (called with these arguments) runs no shell. */
export const shellArgumentOf = (tool: string, mapped: Readonly<Record<string, string>> = {}, args: Readonly<Record<string, unknown>> = {}): string | null => {
  if (mapped[tool] !== undefined) return mapped[tool]!;
  const row = builtInShellTools.find((r) => r.tool === tool);
  if (row === undefined) return mcpCommandArgument(tool, args);
  const value = row.unless === undefined ? undefined : args[row.unless.argument];
  return typeof value === 'string' && row.unless!.values.includes(value) ? null : row.argument;
};

/** Whether the tool's lines run where the gate cannot tell (a background shell that may have `cd`-ed anywhere). */
export const runsInUnknownDirectory = (tool: string, args: Readonly<Record<string, unknown>> = {}): boolean =>
  builtInShellTools.some((r) => r.tool === tool && r.directoryUnknown === true) || mcpCommandArgument(tool, args) !== null;
