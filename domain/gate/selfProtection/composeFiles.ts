/**
 * Compose files (red team 6: `docker compose -f FILE up`, `docker-compose run`): each service they start is a
 * `docker run` the line does not show. This reads which files a compose command loads, and turns each service
 * into the `docker run -v HOST:TARGET …` it amounts to, so the floor judges it as it judges that line: bind
 * mounts (short and long syntax, named volumes bound to a host folder, secrets and configs from files), the host's
 * process table or network, and the service's command words.
 */
import { parse, parseAllDocuments } from 'yaml';
import { firstOperandIndex, parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { viaAssignments } from './embeddedLanguages.ts';

const dockerGlobal: OptionGrammar = { shortWithValue: 'cHl', longWithValue: ['config', 'context', 'host', 'log-level', 'tlscacert', 'tlscert', 'tlskey'] };
const composeGlobal: OptionGrammar = { shortWithValue: 'fp', longWithValue: ['file', 'project-name', 'project-directory', 'env-file', 'profile', 'ansi', 'progress', 'parallel'] };
/** The verbs that create or start containers from the file. */
const startingVerbs: ReadonlySet<string> = new Set(['up', 'run', 'create', 'start', 'restart', 'watch']);
/** What compose reads when no -f is given (an override file is merged into the first). */
const defaultNames = ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml', 'compose.override.yaml', 'compose.override.yml', 'docker-compose.override.yml', 'docker-compose.override.yaml'];

const inFolder = (dir: string, name: string): string => (dir === '' || dir === '.' ? name : `${dir.replace(/\/+$/, '')}/${name}`);
/** A path below the project folder, spelled so docker reads it as a host path (`./x`, not the named volume `x`). */
const below = (dir: string, path: string): string => { const joined = inFolder(dir, path); return /^[/.~$]/.test(joined) ? joined : `./${joined}`; };
const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) || '/' : '.');

/** The compose files a command loads (`-f` repeated, COMPOSE_FILE, else the defaults in the project folder); none when it starts nothing. */
export const composeFilesOf = (command: SimpleCommand): string[] => {
  const { program, args } = command;
  let rest: readonly string[];
  if (program === 'docker-compose' || program === 'podman-compose') rest = args;
  else {
    const at = firstOperandIndex(args, 0, dockerGlobal);
    // `docker stack deploy -c FILE NAME`: swarm starts the file's services.
    if (args[at] === 'stack' && args[at + 1] === 'deploy') return stackFiles(args.slice(at + 2));
    if (args[at] !== 'compose') return [];
    rest = args.slice(at + 1);
  }
  const options = parseOptions(rest, composeGlobal);
  if (!startingVerbs.has(options.operands[0] ?? '')) return [];
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-f' || a === '--file') files.push(rest[++i] ?? '');
    else if (a.startsWith('--file=')) files.push(a.slice(7));
    else if (/^-f./.test(a)) files.push(a.slice(2));
    else if (!a.startsWith('-')) break;
  }
  if (files.length > 0) return files.filter((f) => f !== '');
  const fromEnvironment = viaAssignments(command.via).find((v) => v.name === 'COMPOSE_FILE')?.value;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment.split(/[:;]/).filter((f) => f !== '');
  const dir = options.long.get('project-directory');
  return defaultNames.map((name) => inFolder(typeof dir === 'string' ? dir : '', name));
};

const stackFiles = (args: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '--compose-file') out.push(args[++i] ?? '');
    else if (a.startsWith('--compose-file=')) out.push(a.slice(15));
    else if (/^-c./.test(a)) out.push(a.slice(2));
  }
  return out.filter((f) => f !== '');
};

type Yaml = unknown;
const record = (value: Yaml): Record<string, Yaml> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, Yaml> : {});
const list = (value: Yaml): Yaml[] => (Array.isArray(value) ? value : []);
const text = (value: Yaml): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);
/** A host path in compose's short syntax: absolute, relative, from home or from a variable (a bare name is a named volume). */
const hostPath = /^(?:[/.~]|\$)/;

interface Mount { readonly host: string; readonly target: string; readonly readOnly: boolean }

/** Top-level volumes bound to a host folder (`driver_opts: {type: none, o: bind, device: PATH}`). */
const boundVolumes = (root: Record<string, Yaml>): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [name, spec] of Object.entries(record(root['volumes']))) {
    const device = text(record(record(spec)['driver_opts'])['device']);
    if (device !== undefined) out.set(name, device);
  }
  return out;
};

const serviceMounts = (service: Record<string, Yaml>, root: Record<string, Yaml>, dir: string): Mount[] => {
  const bound = boundVolumes(root);
  const host = (source: string): string | null => {
    if (hostPath.test(source)) return source.startsWith('.') ? below(dir, source) : source;
    return bound.get(source) ?? null;
  };
  // A file compose reads itself (a secret's, an env_file): relative to the project folder.
  const onHost = (file: string): string => (/^[/~$]/.test(file) ? file : below(dir, file));
  const out: Mount[] = [];
  for (const volume of list(service['volumes'])) {
    const short = text(volume);
    if (short !== undefined) {
      const parts = short.split(':');
      if (parts.length < 2) continue;
      const from = host(parts[0]!);
      if (from !== null) out.push({ host: from, target: parts[1]!, readOnly: /(?:^|,)ro(?:,|$)/.test(parts[2] ?? '') });
      continue;
    }
    const spec = record(volume);
    const source = text(spec['source']);
    const from = source === undefined ? null : host(source);
    if (from !== null) out.push({ host: from, target: text(spec['target']) ?? '/mnt', readOnly: spec['read_only'] === true });
  }
  // Secrets and configs from files are mounted read-only; env_file is read on the host.
  for (const kind of ['secrets', 'configs']) {
    const defined = record(root[kind]);
    for (const use of list(service[kind])) {
      const name = text(use) ?? text(record(use)['source']);
      const file = name === undefined ? undefined : text(record(defined[name])['file']);
      if (file !== undefined) out.push({ host: onHost(file), target: `/run/${kind}/${name}`, readOnly: true });
    }
  }
  for (const file of [service['env_file']].flat().map((f) => text(f) ?? text(record(f)['path'])).filter((f): f is string => f !== undefined))
    out.push({ host: onHost(file), target: '/env', readOnly: true });
  return out;
};

/** A service's command or entrypoint as words (a string is split on blanks). */
const words = (value: Yaml): string[] => (typeof value === 'string' ? value.split(/\s+/).filter((w) => w !== '') : list(value).map((w) => text(w) ?? '').filter((w) => w !== ''));

/** The `docker run` argument list each service amounts to. */
const serviceRuns = (root: Record<string, Yaml>, dir: string): { name: string; args: string[] }[] =>
  Object.entries(record(root['services'])).map(([name, spec]) => {
    const service = record(spec);
    const args = ['run'];
    for (const m of serviceMounts(service, root, dir)) args.push('-v', `${m.host}:${m.target}${m.readOnly ? ':ro' : ''}`);
    if (text(service['pid']) === 'host') args.push('--pid=host');
    if (text(service['network_mode']) === 'host') args.push('--network=host');
    if (service['privileged'] === true) args.push('--privileged');
    args.push(text(service['image']) ?? name, ...words(service['entrypoint']), ...words(service['command']));
    return { name, args };
  });

/** Text the YAML reader fails on may still be read by compose or podman: every host-looking `SOURCE:TARGET` and `source:`/`device:`/`path:` value. */
const roughRuns = (content: string, dir: string): { name: string; args: string[] }[] => {
  const args = ['run'];
  for (const m of content.matchAll(/^[\s-]*["']?((?:[/.~]|\$)[^\s:"']*):([^\s"']+)|^\s*(?:source|device|file|path)\s*:\s*["']?((?:[/.~]|\$)[^\s"']*)/gm)) {
    const from = m[1] ?? m[3]!;
    args.push('-v', `${from.startsWith('.') ? below(dir, from) : from}:${m[2] ?? '/mnt'}`);
  }
  return args.length === 1 ? [] : [{ name: '(unparsed)', args: [...args, 'image'] }];
};

/** The other compose files one pulls in (`include:`, a service's `extends: {file: …}`), as written (relative to its folder). */
export const composeIncludes = (content: string): string[] => {
  if (!/\binclude\b|\bextends\b/.test(content)) return [];
  let root: Record<string, Yaml>;
  try {
    root = record(parse(content, { merge: true, maxAliasCount: 1000 }) as Yaml);
  } catch {
    return [];
  }
  const included = list(root['include']).flatMap((entry) => [text(entry) ?? [record(entry)['path']].flat().map(text)].flat());
  const extended = Object.values(record(root['services'])).map((service) => text(record(record(service)['extends'])['file']));
  return [...included, ...extended].filter((f): f is string => f !== undefined && f !== '');
};

/** A path a compose file names, as the line would spell it (relative to the line's folder, like the file's own path). */
export const besideComposeFile = (file: string, path: string): string => (/^[/~]/.test(path) ? path : inFolder(folderOf(file), path));

/** The stand-in `docker run` commands of a compose file (its relative paths taken from the file's own folder). */
export const composeStandIns = (content: string, file: string, source: SimpleCommand): SimpleCommand[] => {
  const dir = folderOf(file);
  let runs: { name: string; args: string[] }[];
  try {
    runs = serviceRuns(record(parse(content, { merge: true, maxAliasCount: 1000 }) as Yaml), dir);
  } catch {
    runs = roughRuns(content, dir);
  }
  return runs.map(({ name, args }) => standIn(args, source, file, `service ${name}`));
};

/** `podman kube play FILE` (and the older `podman play kube FILE`): the Kubernetes YAML of the pods it starts here. */
export const kubeFilesOf = (command: SimpleCommand): string[] => {
  if (command.program !== 'podman') return [];
  const at = firstOperandIndex(command.args, 0, dockerGlobal);
  const [a, b] = [command.args[at], command.args[at + 1]];
  if (!((a === 'kube' && b === 'play') || (a === 'play' && b === 'kube'))) return [];
  return parseOptions(command.args.slice(at + 2), { longWithValue: ['annotation', 'authfile', 'build', 'configmap', 'context-dir', 'ip', 'log-driver', 'log-opt', 'mac-address', 'network', 'publish', 'userns', 'creds', 'seccomp-profile-root'] }).operands.slice(0, 1);
};

/** Every object below a YAML value (a pod spec sits at different depths in a Pod, a Deployment, a Job). */
const objects = function* (value: Yaml, depth = 0): Generator<Record<string, Yaml>> {
  if (depth > 12 || value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) yield value as Record<string, Yaml>;
  for (const child of Object.values(value as Record<string, Yaml>)) yield* objects(child, depth + 1);
};

/** The stand-in `docker run` of each pod spec in a Kubernetes file: hostPath volumes, hostPID, hostNetwork, privileged. */
export const kubeStandIns = (content: string, file: string, source: SimpleCommand): SimpleCommand[] => {
  const dir = folderOf(file);
  const args = ['run'];
  let documents: Yaml[] | null;
  try {
    const parsed = [...parseAllDocuments(content)];
    documents = parsed.some((d) => d.errors.length > 0) ? null : parsed.map((d) => d.toJS({ maxAliasCount: 1000 }) as Yaml);
  } catch {
    documents = null;
  }
  if (documents === null) return roughRuns(content, dir).map(({ args: rough }) => standIn(rough, source, file, 'pod'));
  for (const found of documents.flatMap((d) => [...objects(d)])) {
    const path = text(record(found['hostPath'])['path']);
    if (path !== undefined) args.push('-v', `${path.startsWith('/') ? path : below(dir, path)}:/mnt`);
    if (found['hostPID'] === true) args.push('--pid=host');
    if (found['hostNetwork'] === true) args.push('--network=host');
    if (found['privileged'] === true) args.push('--privileged');
  }
  return args.length === 1 ? [] : [standIn([...args, 'image'], source, file, 'pod')];
};

const standIn = (args: string[], source: SimpleCommand, file: string, name: string): SimpleCommand => ({
  program: 'docker', programPath: 'docker', args, redirects: [], pipedFrom: [], via: [], text: `${source.text} (${file}, ${name})`,
});
