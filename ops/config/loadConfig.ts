/** Reads the YAML configuration (flag, then TOLLGATE_CONFIG, then ./tollgate.yaml if present) and validates it. */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { configSchema, type TollgateConfig } from './configSchema.ts';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const defaultConfig = (): TollgateConfig => configSchema.parse({});

/** Validates a parsed configuration object, naming every wrong key by its path. */
export const parseConfig = (value: unknown, source = 'configuration'): TollgateConfig => {
  const parsed = configSchema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  throw new ConfigError(`${source} is not valid:\n${problems.join('\n')}`);
};

export const configPath = (flag?: string, env: NodeJS.ProcessEnv = process.env): string | null =>
  flag ?? env['TOLLGATE_CONFIG'] ?? (existsSync('tollgate.yaml') ? 'tollgate.yaml' : null);

export const loadConfig = (flag?: string, env: NodeJS.ProcessEnv = process.env): TollgateConfig => {
  const path = configPath(flag, env);
  if (path === null) return defaultConfig();
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (error) {
    throw new ConfigError(`cannot read the configuration file ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try { value = parseYaml(text); } catch (error) {
    throw new ConfigError(`${path} is not valid YAML: ${(error as Error).message}`);
  }
  return parseConfig(value, path);
};

/** Deep-merges a partial configuration (as scenario files give it) over another, then validates. */
export const mergeConfig = (base: unknown, override: unknown): unknown => {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = mergeConfig(base[key], value);
  return merged;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
