/**
 * Which protected thing a path names, judged from its text and the recorded facts (no file system). Paths are
 * normalised first ('..', '//', './'); a relative path with an unknown working directory is matched by its
 * leading segments against the tails of protected paths; a path behind a variable that cannot be resolved is
 * judged by the names after it (seed 003, lesson 5: `$X/AGENTS.md` is still AGENTS.md).
 */
import { canonicalJson } from '../../encoding/canonicalJson.ts';
import { boundedMemo } from '../../shell/recentMemo.ts';
import { normalizePath } from '../../shell/shellPaths.ts';
import type { CallPathFacts } from './callPathFacts.ts';
import type { ProtectedKind, ProtectionFacts } from './protectionFacts.ts';
import { hermesHomeCodeNames, runsFromHome } from './hermesHomeCode.ts';
import { startupFileRow, startupFileSegments } from './startupFiles.ts';

/** What a protected path is; all of them block a write except 'hermes-home', where a change asks (startup-file: startupFiles.ts). */
export type HitKind = ProtectedKind | 'hermes-file' | 'rules-file' | 'runtime-settings' | 'hermes-home' | 'startup-file';

export interface PathHit {
  readonly kind: HitKind;
  /** The protected path (or name) that was hit, for the message. */
  readonly what: string;
}

/** Files of a Hermes home that decide what the agent may do, and its plugins folder. */
export const hermesProtectedNames: ReadonlySet<string> = new Set(['config.yaml', '.env', 'auth.json', 'plugins', 'shell-hooks-allowlist.json']);
/** Those and what Hermes runs from its home (hermesHomeCode.ts): a change below a home to one of them blocks. */
const hermesHomeBlocked: ReadonlySet<string> = new Set([...hermesProtectedNames, ...hermesHomeCodeNames]);
/** Names inside tollgate's data folder: a relative `data/ledger.db` is tollgate's even when the folder name is common. */
const dataInnerNames = new Set(['ledger.db', 'ledger.db-wal', 'ledger.db-shm', 'payloads.db', 'payloads.db-wal', 'payloads.db-shm', 'keys', 'projections', 'checkpoints', 'tollgate.sock', 'http-token', 'tollgate.pid']);
/** The projection checkpoints in `data/projections/`, named by their projection. */
const projectionFiles = new Set(['grants.json', 'pending-approvals.json', 'session-timeline.json', 'would-block-report.json']);
/** Names inside tollgate's code folders: `bin/tollgate.mjs`, `adapters/hooks/…` are tollgate's whatever the folder. */
const codeInnerNames = new Set(['tollgate.mjs', 'hooks', 'hermes']);
/** Names judged alone when the folder in front of them is unknown (`$X/config.yaml`). */
const byNameKinds: ReadonlyMap<string, HitKind> = new Map<string, HitKind>([
  ['config.yaml', 'hermes-file'], ['.env', 'hermes-file'], ['auth.json', 'hermes-file'], ['shell-hooks-allowlist.json', 'hermes-file'],
  ['tollgate.yaml', 'config'], ['tollgate.yml', 'config'], ['ledger.db', 'data'], ['payloads.db', 'data'], ['tollgate.sock', 'socket'], ['http-token', 'secret'],
]);
/** Folder names too common to be recognised from one segment of a relative path (`bin/run.sh` is not tollgate's bin/). */
const commonNames = new Set([
  'data', 'bin', 'adapters', 'plugins', 'lib', 'src', 'build', 'dist', 'tmp', 'var', 'etc', 'config', 'keys', 'projections',
  'home', 'run', 'main', 'app', 'test', 'spec', 'node_modules', 'config.yaml', '.env', 'auth.json', 'settings.json',
  'domain', 'ops', 'package.json', 'package-lock.json', 'tsconfig.json',
]);

interface Entry {
  readonly path: string;
  readonly segments: readonly string[];
  readonly kind: HitKind;
  /** Segments a relative path must share with this entry's tail before it counts as naming it. */
  readonly minOverlap: number;
}

export interface ProtectionIndex {
  readonly facts: ProtectionFacts;
  readonly entries: readonly Entry[];
  readonly homes: readonly Entry[];
  readonly rulesFiles: ReadonlySet<string>;
  /** Socket paths, for clients that name them inside a longer argument (`UNIX-CONNECT:/x/tollgate.sock`). */
  readonly sockets: readonly string[];
  /** Absolute protected paths, longest first, for a substring search through code and option values. */
  readonly needles: readonly { readonly text: string; readonly kind: HitKind }[];
  /** The HTTP port as a URL part (`:8787`, `/8787`) and bash's `/dev/tcp/127.0.0.1/8787`; null when HTTP is off. */
  readonly portInWord: RegExp | null;
  readonly devTcp: RegExp | null;
  /** This call's symlinks (absolute path as written -> real path) and named folders; empty until withCallFacts. */
  readonly links: ReadonlyMap<string, string>;
  readonly dirs: ReadonlySet<string>;
  /** Every segment a path must contain to name something protected (see cannotName). */
  readonly knownSegments: ReadonlySet<string>;
  /** Working directories already found to hold nothing protected, nor to lie inside something protected. */
  readonly plainDirs: Map<string, boolean>;
}

const noLinks: ReadonlyMap<string, string> = new Map();
const noDirs: ReadonlySet<string> = new Set();

/** The index with one call's file-system facts: a path is judged as written and as the link it goes through leads. */
export const withCallFacts = (index: ProtectionIndex, facts: CallPathFacts | null | undefined): ProtectionIndex => {
  if (facts == null || (Object.keys(facts.links).length === 0 && facts.dirs.length === 0)) return index;
  return { ...index, links: new Map(Object.entries(facts.links)), dirs: new Set(facts.dirs) };
};

const segmentsOf = (path: string): string[] => path.split('/').filter((s) => s !== '');

const entry = (path: string, kind: HitKind, profile = false): Entry => {
  const segments = segmentsOf(path);
  const last = segments[segments.length - 1] ?? '';
  return { path, segments, kind, minOverlap: profile || commonNames.has(last) ? 2 : 1 };
};

let cached: { facts: ProtectionFacts; index: ProtectionIndex } | null = null;
/** Frozen facts are one object per daemon run (and its checked copy): their index is kept with them. */
const byFrozenFacts = new WeakMap<ProtectionFacts, ProtectionIndex>();

/** The lookups for one set of facts; the gate records the same facts with every call, so the last is kept. */
export const protectionIndex = (facts: ProtectionFacts): ProtectionIndex => {
  const frozen = byFrozenFacts.get(facts);
  if (frozen !== undefined) return frozen;
  if (cached !== null && sameFacts(cached.facts, facts)) {
    if (Object.isFrozen(facts)) byFrozenFacts.set(facts, cached.index);
    // The newest equal object is kept, so the next call with it is matched by identity, not re-encoded.
    cached = { facts, index: cached.index };
    return cached.index;
  }
  const entries = facts.paths.map((p) => entry(normalizePath(p.path), p.kind));
  const homes = facts.hermesHomes.map((h) => entry(normalizePath(h), 'hermes-home', h.includes('/profiles/')));
  const homeFiles = homes.flatMap((h) => [...hermesHomeBlocked].map((n) => ({ text: `${h.path}/${n}`, kind: 'hermes-file' as HitKind })));
  const needles = [...entries, ...homes]
    .filter((e) => e.segments.length >= 2)
    .map((e) => ({ text: e.path, kind: e.kind }))
    .concat(homeFiles)
    .sort((a, b) => b.text.length - a.text.length);
  const index: ProtectionIndex = {
    facts, entries, homes, rulesFiles: new Set(facts.rulesFiles), needles,
    portInWord: facts.httpPort === null ? null : new RegExp(`[:/]${facts.httpPort}(?![0-9])`),
    // Any host: bash resolves it (`::1`, `0`, `0x7f000001`, the machine's own name all reach a daemon on this port).
    devTcp: facts.httpPort === null ? null : new RegExp(`^/dev/(?:tcp|udp)/[^/]+/${facts.httpPort}$`),
    sockets: entries.filter((e) => e.kind === 'socket').map((e) => e.path),
    links: noLinks, dirs: noDirs,
    knownSegments: new Set([...entries, ...homes].flatMap((e) => e.segments).concat(
      [...dataInnerNames, ...codeInnerNames, ...hermesHomeBlocked, ...byNameKinds.keys(), ...facts.rulesFiles, ...nameSegments, ...startupFileSegments])),
    plainDirs: new Map(),
  };
  cached = { facts, index };
  if (Object.isFrozen(facts)) byFrozenFacts.set(facts, index);
  return index;
};

/** Segments that the by-name rules look for in any folder (matchNames, hermesPackage). */
const nameSegments = ['.claude', 'settings.json', 'settings.local.json', '.claude.json', 'managed-settings.json', 'managed-mcp.json', '.hermes', 'site-packages', 'dist-packages'];

/**
 * A cheap and exact shortcut for the common word: true when no spelling of it can name anything protected, so
 * resolving and matching it would find nothing. Every match (absolute, by tail, by name) needs one of the
 * index's known segments in the word, unless the working directory already lies inside or at a protected
 * path; words with variables, `~`, `..`, patterns or call symlinks take the full path.
 */
export const cannotName = (word: string, context: PathContext, index: ProtectionIndex): boolean => {
  if (index.links.size > 0 || context.base || /[$`~*?[{\s\\]/.test(word)) return false;
  // `/proc/self/cwd/x` is x in the working directory, whatever its segments say.
  if (word.startsWith('/proc/')) return false;
  if (context.lost === true && context.cwd === null && !word.startsWith('/')) return false;
  if (!word.includes('/')) {
    if (word === '..' || index.knownSegments.has(word)) return false;
  } else {
    for (const segment of word.split('/')) if (segment === '..' || index.knownSegments.has(segment)) return false;
  }
  if (word.startsWith('/') || context.cwd === null) return true;
  return plainDirectory(context.cwd, index);
};

/** Whether names below this folder can be protected only through segments of their own (see cannotName). */
const plainDirectory = (dir: string, index: ProtectionIndex): boolean => {
  let plain = index.plainDirs.get(dir);
  if (plain !== undefined) return plain;
  const segments = segmentsOf(dir);
  plain = !segments.some((s) => s === '.hermes' || startupFolders.has(s)) && segments[segments.length - 1] !== '.claude'
    && ![...index.entries, ...index.homes].some((e) => dir === e.path || dir.startsWith(`${e.path}/`));
  if (index.plainDirs.size < 256) index.plainDirs.set(dir, plain);
  return plain;
};

/** Folders whose files a program runs at start (site-packages included): a relative name below one may be such a file. */
const startupFolders: ReadonlySet<string> = new Set(startupFileSegments);

/** A file a program runs at start (startupFiles.ts): its row names why a write of it blocks. */
const startupHit = (segments: readonly string[], index: ProtectionIndex, absolute: boolean): PathHit | null => {
  const home = index.facts.home;
  const row = startupFileRow(segments, home === null ? null : segmentsOf(home), absolute);
  return row === null ? null : { kind: 'startup-file', what: `${absolute ? '/' : ''}${segments.join('/')} (${row.name}: run at start, unseen by the guard)` };
};

/** Every field counts (a field-by-field list once forgot the daemon's uid, user and code root): compared whole. */
const sameFacts = (a: ProtectionFacts, b: ProtectionFacts): boolean => a === b || canonicalJson(a) === canonicalJson(b);

/** A path word after what the line and the facts make known. */
export interface ResolvedPath {
  /** The absolute path, when the working directory (or the word itself) makes it known. */
  readonly absolute: string | null;
  /** The word's own segments when it is relative (matched against protected tails whatever the directory). */
  readonly relative: readonly string[] | null;
  /** Segments after a variable that could not be resolved: judged by name. */
  readonly unresolved: readonly string[] | null;
  /** The word below a relative folder an earlier `cd` entered (`cd .tollgate && rm ledger.db`). */
  readonly based?: readonly string[] | null;
  /** A relative word where the directory was lost (see PathContext.lost): matched as if it were in any folder. */
  readonly anywhere?: readonly string[] | null;
  /** The word is one variable the session exported with a value the gate cannot know. */
  readonly unknownVariable?: string;
  /** The absolute folder the word's literal start names before its first unknown: the word lies somewhere below it. */
  readonly within?: string;
  /** That folder as relative segments, where the working directory is unknown (`data/keys/$K`); lost: see PathContext. */
  readonly withinRelative?: { readonly segments: readonly string[]; readonly lost: boolean };
}

export interface PathContext {
  readonly home: string | null;
  readonly hermesHome: string | null;
  /** The absolute working directory, when known. */
  readonly cwd: string | null;
  /** Otherwise the relative folder that `cd` entered from the unknown start, if any. */
  readonly base?: string | null;
  /**
   * The directory is unknown because the terminal went where the gate could not follow (not merely unreported):
   * a relative word may then be inside tollgate's data folder, its clone or a Hermes home.
   */
  readonly lost?: boolean;
  /** Variables the session exported with values the gate cannot know: a word that is one of them may be anything. */
  readonly unknownVariables?: ReadonlySet<string>;
}

const variablePrefix = /^(?:\$HOME|\$\{HOME\}|~)(?=\/|$)|^(?:\$HERMES_HOME|\$\{HERMES_HOME\})(?=\/|$)/;

/** Resolves one word; null when it cannot be a path (empty, or prose with spaces or line breaks). */
export const resolvePath = (word: string, context: PathContext): ResolvedPath | null => {
  // Prose has spaces; an expansion may hold some (`$(echo ~/.hermes)/plugins`) and still name one path.
  if (word === '' || /\s/.test(/[$`]/.test(word) ? withoutExpansions(word) : word)) return null;
  let text = word;
  // `$PWD`, `$(pwd)`: the working directory, when known.
  const pwd = /^(?:\$PWD|\$\{PWD\}|\$\(pwd\))(?=\/|$)/.exec(text);
  if (pwd !== null && context.cwd !== null) text = context.cwd + text.slice(pwd[0].length);
  // The lost folder itself (`rm -rf "$PWD"`): judged as `.` there.
  else if (pwd !== null && context.lost === true) text = `.${text.slice(pwd[0].length)}`;
  // `~+` is $PWD and `~-` is $OLDPWD; `/proc/self/cwd` is the working directory, `/proc/PID/root` a root (red team 5, F).
  if (text.startsWith('~+') || text.startsWith('~-') || text.startsWith('/proc/')) {
    const spelled = workingDirectorySpelling(text, context);
    if (spelled === null) return null;
    if (spelled.unknown) return fromUnresolved(`$_${spelled.rest}`);
    text = spelled.text;
  }
  const prefix = variablePrefix.exec(text);
  if (prefix !== null) {
    const base = prefix[0].includes('HERMES_HOME') ? context.hermesHome : context.home;
    if (base === null) return fromUnresolved(text.slice(prefix[0].length));
    text = base + text.slice(prefix[0].length);
  }
  if (/[$`]/.test(text)) {
    // `rm -rf "$(… | openssl base64 -d)"`: decoded text the walk could not read (it reads base64, rev, tr…) may name anything.
    const decoded = undecodedWord(text);
    if (decoded !== null) return { absolute: null, relative: null, unresolved: null, anywhere: [], unknownVariable: decoded };
    // `export D=$(…)` earlier, then `rm -rf $D`: the whole word is a value the agent set and the gate cannot read.
    const whole = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))\/*$/.exec(text);
    const name = whole?.[1] ?? whole?.[2];
    if (name !== undefined && (context.unknownVariables?.has(name) === true || context.unknownVariables?.has('*') === true)) return { absolute: null, relative: null, unresolved: null, anywhere: [], unknownVariable: name };
    const tail = fromUnresolved(text);
    const folder = literalFolder(text, context);
    if (folder === null) return tail;
    return tail === null ? { absolute: null, relative: null, unresolved: null, ...folder } : { ...tail, ...folder };
  }
  if (text.startsWith('/')) return { absolute: normalizePath(text), relative: null, unresolved: null };
  // A bare word (`pgrep -af tollgate`, `man tollgate`) is judged where the working directory puts it, not by the
  // tail of every protected folder; distinctive file names (`tollgate.yaml`, `ledger.db`) still match by tail.
  const relative = !text.includes('/') && context.cwd !== null ? null : relativeSegments(text);
  const absolute = context.cwd === null ? null : normalizePath(`${context.cwd}/${text}`);
  const based = context.cwd === null && context.base ? relativeSegments(`${context.base}/${text}`) : null;
  const anywhere = context.cwd === null && context.lost === true ? based ?? relative : null;
  return { absolute, relative, unresolved: null, based, anywhere };
};

/**
 * A substitution running a decoder (red team 8): what it prints is unknown when the walk did not read it, and
 * may be any path. tr and rev are left out: given unknown text they only reshape it (`"$(echo "$f" | tr ' ' _)"`).
 */
const decoderSubstitution = /(?:\$\(|`)[^)`]*\b(?:base64|base32|basenc|xxd|openssl|gunzip|zcat|bunzip2|unxz|xzcat|uudecode|gpg)\b[^)`]*[)`]/;
const undecodedWord = (text: string): string | null => {
  if (!text.includes('$(') && !text.includes('`')) return null;
  const found = decoderSubstitution.exec(text);
  return found === null ? null : found[0];
};

const procFolder = /^\/proc\/([^/]+)\/(cwd|root)(?=\/|$)/;

/**
 * `~+/x` and `/proc/self/cwd/x` are x in the working directory (`./x` when it is unknown); `/proc/self/root/x` is
 * `/x`; another process's folder (`/proc/1234/cwd`, `/proc/*\/cwd`) and `~-` ($OLDPWD) are unknown folders.
 */
const workingDirectorySpelling = (text: string, context: PathContext): { text: string; unknown: boolean; rest: string } | null => {
  const tilde = /^~([+-])(?=\/|$)/.exec(text);
  const proc = tilde === null ? procFolder.exec(text) : null;
  if (tilde === null && proc === null) return { text, unknown: false, rest: '' };
  const rest = text.slice((tilde ?? proc)![0].length);
  const own = proc === null || proc[1] === 'self' || proc[1] === 'thread-self';
  if (proc?.[2] === 'root') return { text: rest === '' ? '/' : rest, unknown: false, rest };
  if (tilde?.[1] === '-' || !own) return { text, unknown: true, rest };
  return { text: context.cwd === null ? `.${rest}` : `${context.cwd}${rest}`, unknown: false, rest };
};

/**
 * What follows the last unknown (a variable, a command's output, a `~` whose home is not known). The unknown may
 * be any text, '/' included, so whatever stood before it says nothing and the word is `anything · tail`; a tail
 * that starts inside a segment (`${X}plugins`, `plu$(true)gins`, `AGE${Q}NTS.md`) is that segment's end, a glob
 * `*plugins` in some folder, when its literal pieces keep three characters besides an extension (`${f%.txt}.json`
 * is every JSON file); otherwise a segment that starts with literal text is taken whole (`AGENT${X}.md` reads
 * `AGENT*.md`). A word with nothing after its last unknown (`"$BUILD_DIR"`) is not judged by name.
 */
const fromUnresolved = (text: string): ResolvedPath | null => {
  // `$(echo ~/.hermes)/plugins`, `${X:-~/.hermes}/plugins`: the expansion is one unknown, whatever '/' it holds.
  const segments = withoutExpansions(text).split('/');
  let last = -1;
  segments.forEach((s, i) => { if (s.includes(unknownMark)) last = i; });
  const marked = last < 0 ? '' : segments[last]!;
  const partial = marked.slice(marked.lastIndexOf(unknownMark) + 1);
  // `AGE${A}NT${B}S.md`: every literal piece after the first unknown, each unknown a `*` (`*NT*S.md`).
  const glob = partial === '' ? '' : `*${marked.slice(marked.indexOf(unknownMark) + 1).split(unknownMark).join('*')}`;
  // `AGENT${X}.md`: a bare extension after the unknown says little, but with the segment's own start it names a file.
  const whole = glob === '' || marked.startsWith(unknownMark) ? '' : marked.split(unknownMark).join('*');
  const head = glob !== '' && (spellsEnough(glob) || dotNames.has(partial)) ? glob : spellsEnough(whole) ? whole : '';
  const rest = relativeSegments(`${head}/${segments.slice(last + 1).join('/')}`);
  // What follows an unknown may lie in any folder: judged as a path whose directory was lost.
  return rest.length === 0 ? null : { absolute: null, relative: null, unresolved: rest, anywhere: rest };
};

const unknownMark = '\u0000';

/** `/srv/h/plugins/$X`, `data/keys/$(ls)`: the folder spelled before the first unknown; null for `/` or none. */
const literalFolder = (text: string, context: PathContext): Pick<ResolvedPath, 'within' | 'withinRelative'> | null => {
  const unknown = text.search(/[$`]/);
  const slash = text.lastIndexOf('/', unknown);
  if (slash <= 0) return null;
  const folder = text.slice(0, slash);
  if (folder.startsWith('/')) return { within: normalizePath(folder) };
  if (context.cwd !== null) return { within: normalizePath(`${context.cwd}/${folder}`) };
  const segments = relativeSegments(context.base ? `${context.base}/${folder}` : folder);
  return segments.length === 0 ? null : { withinRelative: { segments, lost: context.lost === true } };
};

/** The text with each `$(…)`, `${…}`, `$((…))`, backtick part and `$NAME` replaced by one unknown mark. */
const withoutExpansions = (text: string): string => {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const open = c === '`' ? '`' : c === '$' && (text[i + 1] === '(' || text[i + 1] === '{') ? text[i + 1]! : null;
    if (open === null) {
      if (c === '$' && /[A-Za-z0-9_@*#?!$-]/.test(text[i + 1] ?? '')) {
        i++;
        // A name runs on (`$HOME_DIR`); a positional or special parameter is one character (`$1gins` is `$1` then `gins`).
        if (/[A-Za-z_]/.test(text[i]!)) while (/[A-Za-z0-9_]/.test(text[i + 1] ?? '')) i++;
        out += unknownMark;
      } else out += c;
      continue;
    }
    const close = open === '(' ? ')' : open === '{' ? '}' : '`';
    let depth = 0;
    let j = open === '`' ? i + 1 : i + 2;
    for (; j < text.length; j++) {
      if (open !== '`' && text[j] === open) depth++;
      else if (text[j] === close) { if (depth === 0) break; depth--; }
    }
    out += unknownMark;
    i = j;
  }
  return out;
};

/** Lexical segments of a relative path: '.' and '' dropped, '..' cancels the segment before it (or is dropped). */
const relativeSegments = (text: string): string[] => {
  const out: string[] = [];
  for (const s of text.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop(); else out.push(s);
  }
  return out;
};

/** The protected thing a resolved path names, if any (the strictest of what it may name). */
export const matchPath = (resolved: ResolvedPath, index: ProtectionIndex): PathHit | null => {
  const hits: PathHit[] = [];
  if (resolved.absolute !== null) push(hits, matchAbsolute(resolved.absolute, index));
  if (resolved.relative !== null) push(hits, matchRelative(resolved.relative, index, true));
  if (resolved.based) push(hits, matchRelative(resolved.based, index));
  if (resolved.within !== undefined) push(hits, matchWithin(resolved.within, index));
  // Where the terminal went untracked the folder may be any of them (`data/keys/$K` in tollgate's data folder).
  const folder = resolved.withinRelative;
  if (folder !== undefined) push(hits, folder.lost ? matchAnywhere(folder.segments, index) : matchRelative(folder.segments, index));
  if (resolved.unknownVariable !== undefined) hits.push({ kind: 'data', what: `$${resolved.unknownVariable}, which the session exported with a value the gate cannot know` });
  else if (resolved.anywhere) push(hits, matchAnywhere(resolved.anywhere, index));
  if (resolved.unresolved !== null) {
    push(hits, matchRelative(resolved.unresolved, index));
    const name = resolved.unresolved[resolved.unresolved.length - 1]!;
    const kind = byNameKinds.get(name);
    if (kind !== undefined) hits.push({ kind, what: name });
    const first = resolved.unresolved[0]!;
    if (hermesOwnName.test(first)) hits.push({ kind: 'code', what: `${first} (the unknown folder before it may be site-packages)` });
  }
  return strictest(hits);
};

/**
 * Something below a known folder, its name unknown: what the folder lies in, and below a Hermes home's folder (or
 * its profiles) the unknown may be a protected file (`~/.hermes/$F` may be config.yaml).
 */
const matchWithin = (folder: string, index: ProtectionIndex): PathHit | null => {
  if (folder === '/') return null;
  const own = matchAbsolute(folder, index);
  if (own?.kind !== 'hermes-home') return own;
  for (const h of index.homes) if (h.path === folder || h.path.startsWith(`${folder}/`)) return { kind: 'hermes-file', what: `a file of ${h.path} (its name unknown)` };
  return own;
};

const push = (hits: PathHit[], hit: PathHit | null): void => { if (hit !== null) hits.push(hit); };

/** Blocking kinds beat the Hermes-home ask; secrets and sockets beat the rest (they name the stricter reason). */
const strictness = (kind: HitKind): number => kind === 'hermes-home' ? 0 : kind === 'secret' ? 3 : kind === 'socket' ? 2 : 1;
const strictest = (hits: readonly PathHit[]): PathHit | null =>
  hits.reduce<PathHit | null>((best, hit) => best === null || strictness(hit.kind) > strictness(best.kind) ? hit : best, null);

export const matchAbsolute = (path: string, index: ProtectionIndex): PathHit | null => {
  const real = index.links.get(path);
  const own = matchWritten(path, index);
  if (real === undefined) return own;
  return strictest([own, matchWritten(real, index)].filter((h): h is PathHit => h !== null));
};

/** A word with glob characters, a brace list or a sequence (`{r..t}`, `{1..3}`): bash expands it before the command runs. */
export const isPattern = (path: string): boolean => /[*?[]/.test(path) || (path.includes('{') && /\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(path));

const matchWritten = (path: string, index: ProtectionIndex): PathHit | null => {
  if (isPattern(path)) return matchGlob(path, index);
  const hits: PathHit[] = [];
  for (const e of index.entries) if (path === e.path || path.startsWith(e.path + '/')) hits.push({ kind: e.kind, what: e.path });
  for (const h of index.homes) {
    if (path === h.path) hits.push({ kind: 'hermes-home', what: h.path });
    else if (path.startsWith(h.path + '/')) hits.push(insideHermesHome(segmentsOf(path.slice(h.path.length)), h.path));
  }
  push(hits, matchNames(segmentsOf(path), index));
  push(hits, startupHit(segmentsOf(path), index, true));
  return strictest(hits);
};

/** Inside a Hermes home: its protected files, a profile's (profiles/NAME/...), or anything else (an ask). */
const insideHermesHome = (rest: readonly string[], home: string): PathHit => {
  const first = rest[0];
  if (first !== undefined && (hermesProtectedNames.has(first) || runsFromHome(rest))) return { kind: 'hermes-file', what: `${home}/${rest.slice(0, hermesHomeCodeNames.has(first) || first === 'plugins' ? 1 : rest.length).join('/')}` };
  if (first === 'profiles' && rest.length >= 3) return insideHermesHome(rest.slice(2), `${home}/profiles/${rest[1]}`);
  return { kind: 'hermes-home', what: home };
};

/** Protected by name, in any folder: rules files, `.claude/settings.json`, anything under a `.hermes` folder. */
const matchNames = (segments: readonly string[], index: ProtectionIndex): PathHit | null => {
  const last = segments[segments.length - 1];
  if (last === undefined) return null;
  if (index.rulesFiles.has(last)) return { kind: 'rules-file', what: last };
  if (isPattern(last)) { const hit = rulesFileGlob(last, index); if (hit !== null) return hit; }
  if (segments[segments.length - 2] === '.claude' && (last === 'settings.json' || last === 'settings.local.json')) return { kind: 'runtime-settings', what: `.claude/${last}` };
  // Claude Code's user file (its MCP servers and trusted folders) and the machine's managed settings, which outrank
  // every other (`disableAllHooks` there switches tollgate's hooks off).
  if (last === '.claude.json') return { kind: 'runtime-settings', what: '.claude.json' };
  if (segments[segments.length - 2] === 'claude-code' && /^managed-(?:settings|mcp)\.json$/.test(last)) return { kind: 'runtime-settings', what: `claude-code/${last}` };
  const hermes = segments.lastIndexOf('.hermes');
  if (hermes >= 0) return insideHermesHome(segments.slice(hermes + 1), segments.slice(0, hermes + 1).join('/'));
  return hermesPackage(segments);
};

/**
 * Hermes' own code wherever pip put it: hermes-agent installs these top-level packages and modules into
 * site-packages (hermes-agent 0.19's top_level.txt); editing one changes the Hermes that loads the plugin.
 */
const hermesTopLevel = new Set([
  'hermes_cli', 'hermes_bootstrap', 'hermes_constants', 'hermes_logging', 'hermes_state', 'hermes_time', 'agent', 'tools', 'gateway',
  'toolsets', 'model_tools', 'run_agent', 'cli', 'plugins', 'providers', 'tui_gateway', 'acp_adapter', 'mcp_serve',
]);
/** Those names that say Hermes by themselves: the unknown folder before `$(python3 -c …)/hermes_cli` may be site-packages. */
const hermesOwnName = /^(?:(?:hermes_(?:cli|bootstrap|constants|logging|state|time)|run_agent|model_tools|tui_gateway|acp_adapter|mcp_serve)(?:\.py)?|hermes_agent-.*)$/;
const hermesPackage = (segments: readonly string[]): PathHit | null => {
  for (let i = 0; i < segments.length - 1; i++) {
    if (segments[i] !== 'site-packages' && segments[i] !== 'dist-packages') continue;
    const top = segments[i + 1]!.replace(/\.py$/, '');
    if (hermesTopLevel.has(top) || /^hermes_agent-/.test(segments[i + 1]!)) return { kind: 'code', what: segments.slice(0, i + 2).join('/') };
  }
  return null;
};

/** A relative path with an unknown directory: does its start continue the tail of a protected path? */
const matchRelative = (segments: readonly string[], index: ProtectionIndex, asWritten = false): PathHit | null => {
  if (segments.length === 0) return null;
  // A plain word as written names a protected folder only where the working directory makes it that folder (`man
  // tollgate` is no write to /etc/tollgate); a name with a dot (`tollgate.yaml`, `.tollgate`) still does.
  if (asWritten && segments.length === 1 && !fileLikeName.test(segments[0]!)) return matchNames(segments, index);
  const hits: PathHit[] = [];
  const glob = segments.some((s) => /[*?[{]/.test(s));
  for (const e of index.entries) if (continuesTail(segments, e, e.kind === 'data' ? dataInnerNames : e.kind === 'code' ? codeInnerNames : null, glob)) hits.push({ kind: e.kind, what: e.path });
  for (const h of index.homes) {
    const overlap = tailOverlap(segments, h, glob);
    if (overlap > 0) hits.push(overlap === segments.length ? { kind: 'hermes-home', what: h.path } : insideHermesHome(segments.slice(overlap), h.path));
  }
  push(hits, matchNames(segments, index));
  push(hits, startupHit(segments, index, false));
  return strictest(hits);
};

/** A name with a dot (`tollgate.mjs`, `.tollgate`, `ledger.db-wal`) or one of the data folder's own file names: not a plain word. */
const fileLikeName = /\.|^http-token$/;

/** Whether one relative name says enough alone to stand for a protected folder where the directory is unknown (as matchRelative reads it). */
export const namesAlone = (segment: string): boolean => fileLikeName.test(segment) && !commonNames.has(segment);

const lostNote = '(the folder it is in is unknown to the gate; use an absolute path, or cd to one first)';

/**
 * A relative path whose directory was lost: it names a protected path when its start continues the tail of one
 * by any number of segments (`data/x` may be tollgate's data folder), when it starts with a name only tollgate's
 * data or code folders hold (`ledger.db`, `keys/…`), or with a Hermes home's protected file (`config.yaml`,
 * `plugins/…`, `profiles/NAME/.env`). The folder itself (`.`) may be any of them.
 */
const matchAnywhere = (segments: readonly string[], index: ProtectionIndex): PathHit | null => {
  if (segments.length === 0) return { kind: 'data', what: `the terminal's own folder ${lostNote}` };
  const hits: PathHit[] = [];
  const same = (pattern: string, name: string): boolean => pattern === name || (isPattern(pattern) && globRegex(pattern).test(name));
  for (const e of [...index.entries, ...index.homes]) {
    for (let k = Math.min(segments.length, e.segments.length); k >= 1; k--) {
      let aligned = true;
      for (let i = 0; i < k && aligned; i++) aligned = same(segments[i]!, e.segments[e.segments.length - k + i]!);
      if (!aligned) continue;
      hits.push(e.kind === 'hermes-home' ? insideHermesHome(segments.slice(k), e.path) : { kind: e.kind, what: `${e.path} ${lostNote}` });
      break;
    }
  }
  const first = segments[0] ?? '';
  const inner = (names: ReadonlySet<string>) => [...names].some((n) => same(first, n));
  // The ledger's and payload store's companions (`ledger.db.checkpoint.json`) and the projection checkpoints.
  if (/^(?:ledger|payloads)\.db/.test(first) || (segments.length === 1 && projectionFiles.has(first)))
    hits.push({ kind: 'data', what: `${first} in tollgate's data folder ${lostNote}` });
  if (same(first, '.claude') || (segments.length === 1 && (first === 'settings.json' || first === 'settings.local.json')))
    hits.push({ kind: 'runtime-settings', what: `${segments.join('/')} (may be .claude's) ${lostNote}` });
  if (inner(dataInnerNames)) hits.push({ kind: first === 'keys' || first === 'http-token' ? 'secret' : first.startsWith('tollgate.sock') ? 'socket' : 'data', what: `${first} in tollgate's data folder ${lostNote}` });
  if (inner(codeInnerNames)) hits.push({ kind: 'code', what: `${first} in tollgate's code ${lostNote}` });
  const hermesName = first === 'profiles' && segments.length >= 3 ? segments[2]! : first;
  if ([...hermesProtectedNames].some((n) => same(hermesName, n))) hits.push({ kind: 'hermes-file', what: `${segments.join('/')} of a Hermes home ${lostNote}` });
  const name = byNameKinds.get(segments[segments.length - 1]!);
  if (name !== undefined && segments.length === 1) hits.push({ kind: name, what: `${first} ${lostNote}` });
  return strictest(hits);
};

/**
 * A relative folder removed, moved or re-moded whole where the directory was lost: it may hold a protected path
 * when its segments appear in one's path in a row (`rm -rf project` may hold project/data), or it is a Hermes
 * home's profiles folder.
 */
export const containsAnywhere = (segments: readonly string[], index: ProtectionIndex, secretsOnly = false, unknownVariable?: string): PathHit | null => {
  if (unknownVariable !== undefined && /^[$`]/.test(unknownVariable)) return secretsOnly ? null : { kind: 'data', what: `${unknownVariable}: decoded text, a word the gate cannot know` };
  if (unknownVariable !== undefined) return secretsOnly ? null : { kind: 'data', what: `$${unknownVariable}, which the session exported with a value the gate cannot know` };
  if (segments.length === 0) return matchAnywhere(segments, index);
  for (const e of [...index.entries, ...index.homes]) {
    if (secretsOnly && e.kind !== 'secret') continue;
    for (let start = 0; start + segments.length <= e.segments.length; start++) {
      const pattern = segments.map(globRegex);
      if (pattern.every((p, i) => p.test(e.segments[start + i]!)))
        return { kind: e.kind === 'hermes-home' ? 'hermes-file' : e.kind, what: `${e.path} ${lostNote}` };
    }
  }
  if (!secretsOnly && (segments[0] === '.claude' || (isPattern(segments[0]!) && globRegex(segments[0]!).test('.claude')))) return { kind: 'runtime-settings', what: `.claude ${lostNote}` };
  if (!secretsOnly && segments[0] === 'profiles' && segments.length <= 2) return { kind: 'hermes-file', what: `${segments.join('/')} of a Hermes home ${lostNote}` };
  return null;
};

/** The longest k (at least the entry's minimum) such that the entry's last k segments are the path's first k. */
const tailOverlap = (segments: readonly string[], e: Entry, glob = false): number => {
  for (let k = Math.min(segments.length, e.segments.length); k >= 1; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) {
      const name = e.segments[e.segments.length - k + i]!;
      same = name === segments[i] || (glob && globNames(segments[i]!, name));
    }
    if (same && glob && !globSaysEnough(segments.slice(0, k))) continue;
    // A bare `*` adds no evidence: `*/node_modules` shares only one common segment with a clone's node_modules.
    if (same) return (glob ? segments.slice(0, k).filter((s) => /[^*?]/.test(s)).length : k) >= e.minOverlap ? k : 0;
  }
  return 0;
};

/** A glob segment of a relative path that bash may expand to this name (`*` skips dot names). */
const globNames = (segment: string, name: string): boolean =>
  (segment[0] === '.' || name[0] !== '.') && isPattern(segment) && globRegex(segment).test(name);

/**
 * Whether globbed segments that line up with a protected path's tail spell enough of it (`.t*`, `k*`, `p*` in a
 * row do): one segment needs three literal characters besides an extension (`payload*`, not `p*` or `*.key`),
 * several need one literal character (a run of bare `*` segments matches every tail).
 */
const globSaysEnough = (segments: readonly string[]): boolean =>
  segments.length === 1
    ? spellsEnough(segments[0]!)
    : segments.some((s) => /[^*?/]/.test(s));

const continuesTail = (segments: readonly string[], e: Entry, innerNames: ReadonlySet<string> | null, glob = false): boolean => {
  if (tailOverlap(segments, e, glob) > 0) return true;
  // `data/ledger.db`: one common segment, but what follows it is a name only tollgate's folder of that kind holds.
  const last = e.segments[e.segments.length - 1];
  return innerNames !== null && segments.length >= 2 && segments[0] === last && innerNames.has(segments[1]!);
};

/**
 * A pattern (glob or brace list) matched segment by segment against the protected paths: it may name one of them
 * or something below one (`dat?/ledger.db`, `data/*`), a Hermes home's protected file, or a rules file by name.
 * A possible match counts as the match.
 */
const matchGlob = (path: string, index: ProtectionIndex): PathHit | null => {
  const pattern = segmentPatterns(path);
  const hits: PathHit[] = [];
  for (const e of index.entries) if (reaches(pattern, e.segments, 'inside')) hits.push({ kind: e.kind, what: e.path });
  for (const h of index.homes) {
    if (!reaches(pattern, h.segments, 'inside')) continue;
    let name: string | undefined;
    // With `shopt -s nocaseglob` (set on this line or an earlier one) `CONFIG.yam[l]` is config.yaml: names caseless.
    const caseless = segmentsOf(path).map((s) => s === '**' ? null : caselessGlob(s));
    for (const n of hermesHomeBlocked) if (name === undefined && (reaches(pattern, [...h.segments, n], 'inside') || reaches(caseless, [...h.segments, n], 'inside'))) name = n;
    // `/srv/h/profiles/*/config.yaml`: each profile is a home of its own, listed in the facts or not.
    name ??= profileFileGlob(pattern, h.segments);
    hits.push(name !== undefined ? { kind: 'hermes-file', what: `${h.path}/${name}` } : { kind: 'hermes-home', what: h.path });
  }
  const last = pattern[pattern.length - 1];
  if (last !== undefined) {
    push(hits, rulesFileGlob(segmentsOf(path).pop() ?? '', index));
    const parent = pattern[pattern.length - 2];
    if (parent?.test('.claude') && (last?.test('settings.json') || last?.test('settings.local.json'))) hits.push({ kind: 'runtime-settings', what: '.claude/settings.json' });
  }
  return strictest(hits);
};

/**
 * The protected name a pattern reaches in some profile of a home (`HOME/profiles/<any>/NAME`), as `profiles/NAME/…`
 * does when spelled out. Only where the pattern's segments line up with the home's (no `**` before the profile).
 */
const profileFileGlob = (pattern: readonly SegmentPattern[], home: readonly string[]): string | undefined => {
  const at = home.length;
  if (pattern.length < at + 3 || !pattern[at]?.test('profiles') || pattern[at + 1] === null) return undefined;
  for (let i = 0; i < at; i++) if (pattern[i] === null || !pattern[i]!.test(home[i]!)) return undefined;
  const rest = pattern.slice(at + 2);
  for (const n of hermesHomeBlocked) if (reaches(rest, [n], 'inside')) return `profiles/*/${n}`;
  return undefined;
};

/**
 * A rules file by name only when the pattern spells its start (`AG*`) or a distinctive part of it (`?GENTS.md`):
 * `build/*` and `*.md` may hold one, but refusing every wildcard in every folder would refuse ordinary work.
 */
const rulesFileGlob = (segment: string, index: ProtectionIndex): PathHit | null => {
  // A literal start names the file as well (`AG*`, as before), whatever its length.
  if (/^[*?[{]/.test(segment) && !spellsEnough(segment)) return null;
  const pattern = globRegex(segment);
  for (const name of index.rulesFiles) if (pattern.test(name)) return { kind: 'rules-file', what: name };
  return null;
};

/** Whether a glob segment keeps three literal characters besides its extension (`?GENTS.md`, `S[O]UL.md`, not `*.md`). */
const spellsEnough = (segment: string): boolean =>
  segment.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/\[[^\]]*\]|\{[^{}]*\}|[*?]/g, '').length >= 3;

/** Dot names protected whole: `${X}.env` may be a Hermes home's `.env` though a bare extension is not distinctive. */
const dotNames = new Set(['.env', '.claude', '.hermes', '.tollgate']);

/** One regular expression per segment (a segment without wildcards matches only itself); null for globstar's `**`. */
type SegmentPattern = RegExp | null;
const segmentPatterns = (path: string): SegmentPattern[] => segmentsOf(path).map((s) => s === '**' ? null : globRegex(s));

/**
 * Whether a pattern may name `target` or something below it ('inside'), or `target` or a folder above it
 * ('above'). `**` stands for any number of segments (with `shopt -s globstar`; without it, it is one `*`).
 */
const reaches = (pattern: readonly SegmentPattern[], target: readonly string[], mode: 'inside' | 'above', from = 0, at = 0): boolean => {
  let t = at;
  for (let p = from; p < pattern.length; p++, t++) {
    const segment = pattern[p]!;
    if (segment === null) {
      for (let skip = t; skip <= target.length; skip++) if (reaches(pattern, target, mode, p + 1, skip)) return true;
      return false;
    }
    if (t === target.length) return mode === 'inside';
    if (!segment.test(target[t]!)) return false;
  }
  return mode === 'above' || t === target.length;
};

// Compiled once per glob (`*.ts`, `data/*` come back call after call). Without the g or y flag, reuse is safe.
const globRegex = (glob: string): RegExp => compiledGlob(glob);

/**
 * A glob JavaScript cannot compile (`A[z-a]`, `[\w-.]`) must not crash the floor: each bracket class it cannot read
 * is taken as any one character, which matches more names, never fewer; failing that, any name at all.
 */
const compileGlob = (glob: string): RegExp => {
  try {
    return new RegExp(`^${globSource(glob)}$`);
  } catch {
    try {
      return new RegExp(`^${globSource(glob.replace(/\[!?\]?[^\]]*\]/g, '?'))}$`);
    } catch {
      return /^[\s\S]*$/;
    }
  }
};

const compiledGlob = boundedMemo(compileGlob, 512);
const caselessGlob = boundedMemo((glob: string): RegExp => new RegExp(compileGlob(glob).source, 'i'), 128);

/** Whether bash would let one glob segment match this name (case folded with nocaseglob); dot names as the caller decides. */
export const globSegmentMatches = (segment: string, name: string, caseless: boolean): boolean =>
  (caseless ? caselessGlob(segment) : compiledGlob(segment)).test(name);

const globSource = (glob: string): string => {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = bracketEnd(glob, i);
      if (end < 0) { source += '\\['; continue; }
      source += `[${posixClasses(glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\'))}]`;
      i = end;
    } else if (c === '{') {
      const end = glob.indexOf('}', i + 1);
      const body = end < 0 ? '' : glob.slice(i + 1, end);
      if (!body.includes(',')) {
        const sequence = braceSequence(body);
        if (sequence === null) { source += '\\{'; continue; }
        source += sequence;
      } else source += `(?:${body.split(',').map(globSource).join('|')})`;
      i = end;
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return source;
};

/** Where a bracket expression ends: its first `]` that is not its first character nor inside `[:alpha:]`. */
const bracketEnd = (glob: string, open: number): number => {
  let j = open + 1;
  if (glob[j] === '!' || glob[j] === '^') j++;
  if (glob[j] === ']') j++;
  for (; j < glob.length; j++) {
    if (glob[j] === '[' && glob[j + 1] === ':') { const close = glob.indexOf(':]', j + 2); if (close > 0) { j = close + 1; continue; } }
    if (glob[j] === ']') return j;
  }
  return -1;
};

const posixClassRanges: Readonly<Record<string, string>> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', blank: ' \\t', punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f', word: 'A-Za-z0-9_', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f',
};
/** `[[:alpha:]]` as JavaScript reads a class; an unknown class name is any character (more names, never fewer). */
const posixClasses = (body: string): string =>
  body.includes('[:') ? body.replace(/\[:([a-z]+):\]/g, (_, name: string) => posixClassRanges[name] ?? '\\s\\S') : body;

/**
 * What a brace sequence (`r..t`, `1..30`, `a..z..2`) may produce, as a regular expression: letters in the range,
 * or any integer (leading zeros and steps included); null when bash would leave it as written.
 */
const braceSequence = (body: string): string | null => {
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.-?[0-9]+)?$/.exec(body);
  if (letters !== null) {
    const [lo, hi] = [letters[1]!, letters[2]!].sort();
    // Between cases the range holds the punctuation in between ([ \ ] ^ _ `): any one character is close enough.
    return /[a-z]/.test(lo!) === /[a-z]/.test(hi!) ? `[${lo}-${hi}]` : '.';
  }
  return /^-?[0-9]+\.\.-?[0-9]+(?:\.\.-?[0-9]+)?$/.test(body) ? '-?[0-9]+' : null;
};

/**
 * Whether deleting, moving, chmod-ing, linking to or filling `path` (absolute) reaches a protected path: it is
 * one, or an ancestor of one (a pattern: may be). With `secretsOnly`, only the keys and token count (a
 * recursive read of a folder that holds them).
 */
export const containsProtected = (path: string, index: ProtectionIndex, secretsOnly = false): PathHit | null => {
  const real = index.links.get(path);
  return containsWritten(path, index, secretsOnly) ?? (real === undefined ? null : containsWritten(real, index, secretsOnly));
};

const containsWritten = (path: string, index: ProtectionIndex, secretsOnly: boolean): PathHit | null => {
  // Writing all of `/` is the hardline's (rm -rf /, chmod -R /); a walk that reads all of it reads the keys too.
  if (path === '/') {
    const secret = secretsOnly ? index.entries.find((e) => e.kind === 'secret') : undefined;
    return secret === undefined ? null : { kind: 'secret', what: `${secret.path}, below /` };
  }
  const pattern = isPattern(path) ? segmentPatterns(path) : null;
  const segments = segmentsOf(path);
  for (const e of [...index.entries, ...index.homes]) {
    if (secretsOnly && e.kind !== 'secret') continue;
    const hit: PathHit = { kind: e.kind === 'hermes-home' ? 'hermes-file' : e.kind, what: e.path };
    const above = pattern === null
      ? segments.length <= e.segments.length && segments.every((s, i) => e.segments[i] === s)
      : reaches(pattern, e.segments, 'above');
    // Equal counts too: removing a Hermes home or the data folder removes what is inside it.
    if (above) return hit;
  }
  // Any `.claude` folder holds a runtime's hook settings (`rm -rf .claude` removes them).
  // A pattern names it only when it starts with '.' itself: bash's `*` skips dot files.
  const last = segments[segments.length - 1] ?? '';
  const claude = pattern === null ? last === '.claude' : last.startsWith('.') && pattern[pattern.length - 1]?.test('.claude') === true;
  if (!secretsOnly && claude) return { kind: 'runtime-settings', what: '.claude/settings.json' };
  return null;
};

/** A protected absolute path written inside a longer text (code, `UNIX-CONNECT:PATH`, `--opt=PATH`). */
export const mentionedPath = (text: string, index: ProtectionIndex): PathHit | null => {
  for (const needle of index.needles) {
    const at = text.indexOf(needle.text);
    if (at < 0) continue;
    const after = text[at + needle.text.length];
    if (after === undefined || !/[A-Za-z0-9_.-]/.test(after)) return { kind: needle.kind, what: needle.text };
  }
  return null;
};
