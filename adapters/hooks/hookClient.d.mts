/** Types of hookClient.mjs (plain JavaScript, loaded without tsx by the hook fast path). */
export type HookRuntime = 'hermes' | 'claude';
export interface HookOptions {
  runtime: HookRuntime | null;
  socket: string | null;
  config: string | null;
  timeoutMs: number;
  onAllow: 'defer' | 'allow';
  onAsk: 'block' | 'prompt';
  help: boolean;
}
export interface HookResult { exitCode: 0 | 2; stdout: string; stderr: string }
export type ToolAnswer =
  | { kind: 'allow'; message: string; reasons: string[] }
  | { kind: 'ask'; message: string; reasons: string[]; approvalId: string; promptText?: string }
  | { kind: 'block'; message: string; reasons: string[] };
export declare const defaultTimeoutMs: number;
export declare const defaultSocket: string;
export declare const hookHelp: string;
export declare class HookUsageError extends Error {}
export declare const parseHookArgs: (argv: readonly string[]) => HookOptions;
export declare const resolveSocket: (options: { socket: string | null; config: string | null }, env?: NodeJS.ProcessEnv, cwd?: string) => Promise<string>;
export declare const postToDaemon: (socketPath: string, path: string, body: unknown) => Promise<{ status: number; text: string }>;
export declare const parseHttpResponse: (raw: Buffer) => { status: number; text: string };
export declare const readToolAnswer: (reply: { status: number; text: string }) => ToolAnswer;
export declare const blockResult: (runtime: HookRuntime | null, message: string) => HookResult;
export declare const hermesForwardedKeys: Readonly<Record<string, readonly string[]>>;
export declare const answerEvent: (input: { options: HookOptions; stdin: string; env?: NodeJS.ProcessEnv; cwd?: string }) => Promise<HookResult>;
export declare const runHookMain: (argv: readonly string[], given?: { options?: HookOptions }) => Promise<void>;
