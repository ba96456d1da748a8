/**
 * curl's own ways to a target the plain words do not show (red team 3, F11): URL globs (`:878[7-7]`, `{8787}`),
 * `--resolve`/`--connect-to` maps, and config files (`-K f`, `--config f`, `.curlrc` from $HOME or $CURL_HOME)
 * whose `unix-socket = "…"` or `url = …` lines name tollgate's socket or port. A config file the floor cannot
 * read counts as naming them: the socket always exists, and `-K` is rare in ordinary work.
 */
import { curlReachesLoopbackPort, isLoopbackHost } from './loopbackHosts.ts';

/** curl's short options that take a value (a `K` after one of them is that option's value, not `-K`). */
const valueLetters = new Set('AbcCdDeEFHKmoPQrtTuUwxXyYz'.split(''));

/** The config files a curl command line reads with `-K`/`--config` (`-` is standard input). */
export const curlConfigFiles = (args: readonly string[]): string[] => {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--config') files.push(args[++i] ?? '');
    else if (a.startsWith('--config=')) files.push(a.slice('--config='.length));
    else if (/^-[a-zA-Z]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        if (!valueLetters.has(a[j]!)) continue;
        if (a[j] === 'K') files.push(j + 1 < a.length ? a.slice(j + 1) : args[++i] ?? '');
        else if (j + 1 === a.length) i++;
        break;
      }
    }
  }
  return files;
};

/** A curl config file's text as the command-line words it stands for (`unix-socket = "x"` is `--unix-socket x`). */
export const curlConfigWords = (text: string): string[] => {
  const words: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(-{0,2}[A-Za-z0-9][A-Za-z0-9-]*)\s*(?:[=:]\s*|\s+|$)(.*)$/.exec(line);
    if (m === null) { words.push(line); continue; }
    words.push(m[1]!.startsWith('-') ? m[1]! : `--${m[1]}`);
    const rest = m[2]!.trim();
    if (rest === '') continue;
    const quoted = /^"((?:\\.|[^"\\])*)"/.exec(rest);
    words.push(quoted === null ? rest.split(/\s+/)[0]! : quoted[1]!.replace(/\\(.)/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r', v: '\v' } as Record<string, string>)[c] ?? c));
  }
  return words;
};

export interface CurlReach {
  /** The protected path a word names, as the floor's path rules see it (null when none). */
  readonly socketOf: (word: string) => string | null;
  readonly port: number | null;
}

/**
 * What a curl argument list (from the line or a config file) reaches: tollgate's socket through `--unix-socket`,
 * its port through a URL, a glob, a proxy, `--resolve HOST:PORT:127.0.0.1` or `--connect-to`; null when neither.
 */
export const curlWordsReach = (words: readonly string[], reach: CurlReach): string | null => {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const named = /^--(?:unix-socket|abstract-unix-socket)(?:=(.*))?$/.exec(w);
    if (named !== null) {
      const value = named[1] ?? words[i + 1] ?? '';
      if (/[$`]|\{\{/.test(value)) return `a socket named by ${value}`;
      const hit = reach.socketOf(value);
      if (hit !== null) return hit;
    }
    const port = reach.port;
    if (port === null) continue;
    const value = w.replace(/^--?[A-Za-z-]+=/, '');
    if (curlReachesLoopbackPort(value, port)) return `127.0.0.1:${port}`;
    // `--resolve t:8787:127.0.0.1` and `--connect-to ::127.0.0.1:8787`: a name pointed at loopback on the port.
    if (/^--(?:resolve|connect-to)$/.test(w)) {
      const parts = (words[i + 1] ?? '').replace(/^\+/, '').split(':');
      if (w === '--resolve' && Number(parts[1]) === port && parts.slice(2).join(':').split(',').some((a) => isLoopbackHost(a.replace(/^\[|\]$/g, '')))) return `127.0.0.1:${port}`;
      if (/[$`]/.test(words[i + 1] ?? '')) return `a target named by ${words[i + 1]}`;
    }
  }
  return null;
};

/** Whether a path is a curl config read by default (`~/.curlrc`, `$XDG_CONFIG_HOME/curlrc`, `_curlrc`). */
export const isCurlrc = (path: string): boolean => /(?:^|\/)(?:\.curlrc|_curlrc|curlrc)$/.test(path);
