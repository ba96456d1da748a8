/**
 * One test's world: a temp folder with the agent's working folder (`work/`), a real tollgate daemon (its data under
 * the temp folder), the fake model, and a generated HERMES_HOME. `converse` runs one Hermes conversation in it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir, type TempDir } from '../../../support/tempDir.ts';
import { startFakeModel, type FakeModel, type ScriptTurn } from './fakeModelServer.ts';
import { createHermesHome, type ExtraPlugin, type HermesHome, type ShellHookOptions } from './hermesHome.ts';
import type { HermesInstall } from './hermesVenv.ts';
import { runHermes, type HermesRun } from './runHermes.ts';
import { startTollgate, type TollgateDaemon } from './tollgateDaemon.ts';

export interface World {
  readonly temp: TempDir;
  /** The agent's working folder. */
  readonly work: string;
  readonly model: FakeModel;
  /** null when the world was opened without a daemon. */
  readonly daemon: TollgateDaemon | null;
  /** The socket Hermes is told about (exists only while the daemon runs). */
  readonly socket: string;
  /** A path inside the working folder. */
  file(...names: string[]): string;
  exists(...names: string[]): boolean;
  /** Creates a folder with one file in it (a victim for recursive deletes). */
  makeVictim(name: string): string;
  close(): Promise<void>;
}

export const openWorld = async (options: { label: string; daemon?: boolean; tollgateConfig?: (temp: string) => string }): Promise<World> => {
  const temp = await createTempDir(options.label);
  const work = temp.file('work');
  mkdirSync(work);
  // The daemon runs in the temp folder, so a `tollgate.yaml` there is the configuration it loads.
  if (options.tollgateConfig) writeFileSync(temp.file('tollgate.yaml'), options.tollgateConfig(temp.path));
  const daemon = options.daemon === false ? null : await startTollgate(temp.path);
  const model = await startFakeModel();
  const file = (...names: string[]) => join(work, ...names);
  return {
    temp, work, model, daemon,
    socket: daemon?.socket ?? temp.file('data', 'tollgate.sock'),
    file,
    exists: (...names) => existsSync(file(...names)),
    makeVictim: (name) => {
      mkdirSync(file(name), { recursive: true });
      writeFileSync(file(name, 'keep.txt'), 'this folder must survive\n');
      return file(name);
    },
    close: async () => {
      await model.close();
      await daemon?.stop();
      await temp.remove();
    },
  };
};

export interface ConverseOptions {
  readonly install: HermesInstall;
  readonly script: readonly ScriptTurn[];
  readonly userText: string;
  /** @defaultValue true */
  readonly tollgatePlugin?: boolean;
  readonly extraPlugins?: readonly ExtraPlugin[];
  readonly shellHook?: ShellHookOptions;
  readonly yolo?: boolean;
  readonly quiet?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  /** Tell Hermes the socket through TOLLGATE_SOCKET. @defaultValue true */
  readonly socketEnv?: boolean;
  /** Hermes' stdin (answers for its input() approval prompt). */
  readonly stdin?: string;
  /** Use this HERMES_HOME instead of generating one (e.g. one `tollgate install hermes` prepared). */
  readonly home?: HermesHome;
}

export interface Conversation { readonly run: HermesRun; readonly home: HermesHome }

export const converse = async (world: World, options: ConverseOptions): Promise<Conversation> => {
  world.model.load(options.script);
  const home = options.home ?? createHermesHome({
    root: world.temp.path,
    modelBaseUrl: world.model.baseUrl,
    model: world.model.model,
    tollgatePlugin: options.tollgatePlugin ?? true,
    ...(options.extraPlugins ? { extraPlugins: options.extraPlugins } : {}),
    ...(options.shellHook ? { shellHook: options.shellHook } : {}),
  });
  const run = await runHermes({
    install: options.install, home, model: world.model, userText: options.userText, cwd: world.work,
    ...(options.yolo ? { yolo: true } : {}),
    ...(options.quiet === false ? { quiet: false } : {}),
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    env: { ...(options.socketEnv === false ? {} : { TOLLGATE_SOCKET: world.socket }), ...options.env },
  });
  return { run, home };
};

/** The content of the `role: "tool"` message the model received for a tool call id, parsed when it is JSON. */
export const toolResult = (model: FakeModel, callId: string): { readonly raw: string; readonly json: Record<string, unknown> | null } | undefined => {
  const found = model.toolResults().find((r) => r.toolCallId === callId);
  if (!found) return undefined;
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(found.content);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch { /* plain text */ }
  return { raw: found.content, json };
};
