/**
 * Which tools run a shell command line, and in which argument. Built-in Hermes tools are listed here;
 * `tools.<name>.shell_arg` in the configuration adds more (an MCP shell server, a custom runner).
 */
export interface ShellToolRow {
  readonly tool: string;
  readonly argument: string;
  readonly why: string;
}

export const builtInShellTools: readonly ShellToolRow[] = [
  { tool: 'terminal', argument: 'command', why: "Hermes' terminal tool runs its `command` through a shell." },
];

/** The argument holding the command line, or null when the tool runs no shell. */
export const shellArgumentOf = (tool: string, mapped: Readonly<Record<string, string>> = {}): string | null =>
  mapped[tool] ?? builtInShellTools.find((row) => row.tool === tool)?.argument ?? null;
