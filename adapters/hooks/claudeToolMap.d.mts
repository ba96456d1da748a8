/** Types of claudeToolMap.mjs (plain JavaScript, loaded without tsx by the hook fast path). */
export interface ClaudeToolRow {
  readonly claude: string;
  readonly tool: string;
  readonly why: string;
  readonly args: (input: Record<string, unknown>) => Record<string, unknown>;
}
export declare const claudeToolMappings: readonly ClaudeToolRow[];
export declare const mapClaudeToolCall: (toolName: string, toolInput: unknown) => { tool: string; args: Record<string, unknown>; mapped: boolean };
