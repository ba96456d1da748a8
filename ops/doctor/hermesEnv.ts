/**
 * The environment a Hermes process started from this shell would have: this process's variables, with
 * `$HERMES_HOME/.env` on top (hermes_cli/main.py loads it with override=True before plugins and hooks are set up).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HermesEnv {
  readonly values: Readonly<Record<string, string | undefined>>;
  /** Where a variable came from: `environment` or the .env path. */
  readonly sourceOf: (name: string) => string;
}

/** KEY=VALUE lines as python-dotenv reads the usual ones: `export ` prefix, quotes, `#` comments. */
export const parseDotenv = (text: string): Record<string, string> => {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quoted = /^(['"])(.*)\1\s*(#.*)?$/.exec(value);
    if (quoted) value = quoted[2]!;
    else value = value.replace(/\s+#.*$/, '').trim();
    values[match[1]!] = value;
  }
  return values;
};

export const hermesEnvOf = (home: string, env: NodeJS.ProcessEnv = process.env): HermesEnv => {
  const path = join(home, '.env');
  const fromFile = existsSync(path) ? parseDotenv(readFileSync(path, 'utf8')) : {};
  return {
    values: { ...env, ...fromFile },
    sourceOf: (name) => (Object.hasOwn(fromFile, name) ? path : 'the environment of this shell'),
  };
};
