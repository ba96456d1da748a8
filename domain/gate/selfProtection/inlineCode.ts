/**
 * Code the floor reads as text: what an interpreter runs (`execute_code`, `python3 -c`, `node -e`, `perl -e`,
 * `tclsh <<<`, a heredoc), and scripts written now to be run later. Deliberately cautious: code that kills a
 * guarded process, runs what it decoded, reaches tollgate's port, or names a protected path while doing more
 * than reading is stopped — a block, never an ask, because the floor cannot follow the code any further.
 */
import { listensOnGuardPort } from './portListeners.ts';
import { codeRemovesRuntime, isRuntimePath } from './runtimeRemovals.ts';
import { unreadScriptRun } from './laterScripts.ts';
import { mentionsUnguardingVariable, unguardingAssignment, unguardingCodeAssignment } from './unguardingVariables.ts';
import { containsProtected, resolvePath, type PathContext, type PathHit, type ProtectionIndex } from './protectedPaths.ts';
import { killWordsReachGuard, tollgateReadOnlySubcommands } from './controlCommands.ts';
import { changesWholeTrees, codeExtractionFolders, codeListensOnPort, codeReachesLoopbackPort, connectsSomewhere, literalPortUnknown, signalsEveryone } from './codeTargets.ts';
import { namesLoopbackPort } from './loopbackHosts.ts';
import { foldLiterals, isPlainRead, pythonStringLiterals, withoutPrintedLiterals } from './pythonCode.ts';
import { hitInText, hitOf } from './shellScope.ts';
import { codeReachesProcess, reachesGuardProcess } from './processReach.ts';
import { codeStopsDaemon, textCommandReach } from './daemonReach.ts';
import { callArgumentLists, commandLiterals, gluedSocketName, spawnCalls, unixSocketLiteral } from './codeSpawns.ts';
import { codeTypesIntoTerminal, typesIntoTerminal } from './terminalInput.ts';
import { programName } from '../../shell/programName.ts';
import { runLaterPlace, shellStartupFile } from './placedCode.ts';
import { computedProgramCommands } from './unknownPrograms.ts';
import { codeApprovalMessage } from './approvalMessages.ts';
import { codeWalkSecret } from './codeWalks.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

export type CodeFindingId = 'answers-own-prompt' | 'reaches-guard-process' | 'kill-guard' | 'hidden-command' | 'socket-client' | 'tollgate-control-command' | 'hermes-control' | 'read-secret' | 'write-protected-path' | 'uninstall';

export interface CodeFinding {
  readonly id: CodeFindingId;
  readonly what: string;
}

/** A call that sends a signal (Python, Node, Perl, Ruby, Tcl, psutil). */
// psutil's `suspend()` stops a process as surely as SIGSTOP.
const killCall = /\b(?:p?kill|killall|killpg|pthread_kill|terminate|send_signal|suspend|SIGKILL|SIGTERM|SIGSTOP|SIGTSTP)\b/;
/** What names the guard's processes: their names, a search for them, or the runtime itself (the parent). */
// `/proc/self/stat`'s fourth field is the parent's pid: the runtime that started the cell.
const guardedProcessWords = /tollgate|hermes|gateway|pgrep|pidof|getppid|\bppid\b|PPID|[*?\]]\.pid\b|\/proc\/self\/stat\b/i;
/**
 * A walk over the machine's processes (psutil's, /proc's, ps's output): a signal sent from one goes to pids found at
 * run time by names the floor cannot weigh ('node' and 'serve' are the daemon's too), as `kill $(pgrep …)` does.
 */
const processWalk = /\b(?:process_iter|psutil\.pids|pids\s*\(\s*\))|['"`]\/proc\/?['"`]|\/proc\/(?:\*|\[|\$\{|['"`]\s*\+|\{)|\bps\b['"]?\s*,?\s*['"]?(?:-[A-Za-z]*e|aux|ax|-A)\b|\bps\s+(?:-[A-Za-z]*e|aux|ax|-A)\b/;
/** Decoding and then running (or writing) what was decoded: text the floor cannot read. */
const decoding = /\b(?:b64decode|b32decode|b85decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|codecs\.decode|rot_?13|zlib|bz2|lzma|decompress|marshal\.loads|pickle\.loads|atob|unpack|from_base64)\b|Buffer\.from\([^)]*['"](?:base64|hex)['"]/;
const running = /\b(?:exec|eval|system|popen|subprocess|spawn\w*|execSync|execFileSync|execv\w*|child_process|compile|run_path|run_module|Function|__import__)\b|`/;
/** A path that is itself decoded (`open(codecs.decode('gbyytngr.lnzy','rot13'),'w')`): which file it is cannot be read. */
const decodedPath = /\b(?:open|Path|remove|unlink|rmtree|rename|replace|chmod|symlink|writeFileSync|unlinkSync|rmSync)\s*\(\s*(?:codecs\.decode|base64\.\w+|bytes\.fromhex|binascii\.\w+|zlib\.\w+|[\w.]*decode|Buffer\.from|atob)\s*\(/;
/**
 * `p = zlib.decompress(base64.b64decode('…')).decode(); open(p, 'w')`: a name given a decoded value, then handed to a
 * call that writes, removes or renames the file it names (decodedPath's case, through a variable).
 */
const decodedPathVariable = (code: string): boolean => {
  if (!decoding.test(code)) return false;
  for (const m of code.matchAll(/(?:^|[\s;])(?:(?:const|let|var|my)\s+)?\$?([A-Za-z_]\w*)\s*=(?!=)([^\n;]*)/g)) {
    if (!decoding.test(m[2]!)) continue;
    const use = new RegExp(String.raw`\b(?:open|Path|remove|unlink|rmtree|rename|replace|chmod|symlink|writeFileSync|unlinkSync|rmSync|appendFileSync|truncate|copy\w*|move)\s*\(\s*\$?${m[1]}\s*[,)]`);
    if (use.test(code)) return true;
  }
  return false;
};

/** Running a file or a download as code: `exec(open(…).read())`, `runpy.run_path`, `exec(urlopen(…))`. */
const runsForeignCode = /\bexec\s*\(\s*(?:open|compile\s*\(\s*open|urlopen|requests|urllib|input|sys\.stdin)\b|\brunpy\.run_(?:path|module)\b|\beval\s*\(\s*(?:open|input|sys\.stdin)\b/;
/**
 * Calls that hand a string to a shell; awk's `"CMD" | getline` and `print | "CMD"` pipe through one too, and
 * Python's subprocess under any alias (`import subprocess as s; s.call(…, shell=True)`).
 */
const shellCalls = /\b(?:os\.system|os\.popen|subprocess\b|shell\s*=\s*True|commands\.getoutput|execSync|exec|spawnSync|spawn|os\.exec\w+|os\.spawn\w+|pty\.spawn|system|qx|getline|`)|\|&?\s*["']/;

// `!` too: vim, ed, dc, less and git aliases run `!CMD` through a shell.
const tollgateWord = String.raw`(?:^|[\s;&|(\`'"=!])(?:[\w./~-]*/)?(?:tollgate(?:\.mjs|\.js)?|ops/cli/main\.ts)`;
const tollgateCommand = new RegExp(`${tollgateWord}((?:\\s+(?:-c|--config)\\s+\\S+|\\s+-\\S+)*)\\s+([a-z][a-z-]*)`, 'g');
const hermesCommand = /(?:^|[\s;&|(`'"=!])(?:[\w./~-]*\/)?hermes(?:-agent)?(?:\s+(?:-p|--profile)\s+\S+)?\s+(plugins?|config|hooks|setup|uninstall|update|auth|login|logout|model|tools|gateway|profile|claw)\b(?:\s+(\S+))?/g;
// Unguarding flags (and argparse's prefixes of them), and a session taken up (`--resume`, `-c`), in text or argv lists.
const unguardingHermes = new RegExp(String.raw`\bhermes(?:-agent)?\b[^\n;|&]*?[\s'",](?:--(?:yo|yol|yolo|safe|safe-|safe-m\w*|accept-h\w*|ignore-u\w*|ignore-r\w*|resu?m?e?|cont\w*)|-[A-Za-z]*[rc])(?=[\s'",=)\]]|$)|\b` + unguardingAssignment);
const hermesCliImport = /(?:\bfrom\s+hermes_cli\b|\bimport\s+hermes_cli\b|(?:^|\s)-m\s*hermes_cli\b|__import__\(\s*['"]hermes_cli|import_module\(\s*['"]hermes_cli)/;
const shellKill = /(?:^|[\s;&|(`'"!])(?:pkill|killall|skill|fuser\s+-k|kill)\b[^\n]*?(?:tollgate|hermes|gateway|pgrep|pidof|PPID|\bnode\b|[*?\]]\.pid\b|lsof)/;

/** A tollgate command that answers, serves or installs, or a Hermes command that changes it, named in text. */
export const controlInText = (text: string): CodeFinding | null => {
  for (const match of text.matchAll(tollgateCommand)) {
    const sub = match[2]!;
    // `execlp('tollgate', 'tollgate', 'audit')` repeats the program as argv[0]; codeSpawns' reading drops the repeat.
    if (sub === 'tollgate') continue;
    if (!tollgateReadOnlySubcommands.has(sub) && sub !== 'help') return { id: 'tollgate-control-command', what: match[0].trim() };
  }
  for (const match of text.matchAll(hermesCommand)) {
    if (!['list', 'show', 'status', 'ls'].includes(match[2] ?? '')) return { id: 'hermes-control', what: match[0].trim() };
  }
  const unguarded = unguardingHermes.exec(text);
  return unguarded === null ? hermesCodeControl(text) : { id: 'hermes-control', what: unguarded[0].trim() };
};

/**
 * Code that changes Hermes without a shell: its CLI imported (`from hermes_cli.main import main`, then argv set to
 * `plugins disable tollgate`), or a variable that takes the guard away set for what it starts (`os.environ[…] =`).
 */
export const hermesCodeControl = (text: string): CodeFinding | null => {
  const cli = text.includes('hermes_cli') ? hermesCliImport.exec(text) : null;
  if (cli !== null) return { id: 'hermes-control', what: `Hermes' own command-line code (${cli[0].trim()})` };
  const set = mentionsUnguardingVariable(text) ? unguardingCodeAssignment.exec(text) : null;
  if (set !== null) return { id: 'hermes-control', what: set[0].trim() };
  // `os.environ['HOME'] = '/tmp/x'; os.system('hermes chat')`, `env={'HOME': …}`: the runtime started reads another home.
  const home = /\b(?:hermes|claude)\b/.test(text) ? /['"]HOME['"]\s*\]?\s*[=:,](?!=)|\benv\.HOME\s*=(?!=)|ENV\{['"]?HOME['"]?\}\s*=(?!=)|\bputenv\(\s*['"]HOME=/.exec(text) : null;
  return home === null ? null : { id: 'hermes-control', what: `HOME set for the runtime code starts (${home[0].trim()})` };
};

const pidIn = (text: string, pid: number | null): boolean => pid !== null && new RegExp(`(?<![0-9.])[+]?0*${pid}(?![0-9])`).test(text);

const pathFinding = (hit: PathHit): CodeFinding | null =>
  hit.kind === 'secret' ? { id: 'read-secret', what: hit.what }
    : hit.kind === 'socket' || hit.kind === 'socket-dir' ? { id: 'socket-client', what: hit.what }
      : hit.kind === 'hermes-home' ? null : { id: 'write-protected-path', what: hit.what };

/**
 * Two literals with only blanks (or nothing) between them: awk and Python make them one string (`"plu" "gins"`,
 * `'a''b'`). awk also glues a variable between two (`"rm -rf /x/" p "gins"`): read as an unknown part, `$_`.
 */
const juxtaposedPair = /(?:'([^'\\\n]*)'|"([^"\\\n]*)")[ \t]*(?:([A-Za-z_]\w*)[ \t]+)?(?:'([^'\\\n]*)'|"([^"\\\n]*)")/;
const mayJuxtapose = /["'][ \t]*(?:[A-Za-z_]\w*[ \t]+)?["']|["'][ \t]+[A-Za-z_]\w*[ \t]*[),;}]|[(,][ \t]*[A-Za-z_]\w*[ \t]+["']/;
/** awk's variable at either end of a call's argument: `system("rm -rf /x/" p)`, `system(d "/plugins")`. */
const trailingName = /(?:'([^'\\\n]*)'|"([^"\\\n]*)")[ \t]+[A-Za-z_]\w*(?=[ \t]*[),;}])/;
const leadingName = /([(,][ \t]*)[A-Za-z_]\w*[ \t]+(?:'([^'\\\n]*)'|"([^"\\\n]*)")/;

/** awk's names glued by a blank inside a call (`system(a b " x")`), read once the names are their literals. */
const gluesNames = /[(,][ \t]*[A-Za-z_]\w*[ \t]+[A-Za-z_]\w*[ \t]*(?:[),]|[ \t]+["'])/;

/** The code with juxtaposed literals glued (a bounded number of rounds). */
const gluedLiterals = (code: string): string => {
  let glued = code;
  for (let round = 0; round < 32; round++) {
    const next = glued.replace(juxtaposedPair, (_m, a1?: string, a2?: string, name?: string, b1?: string, b2?: string) => `"${a1 ?? a2 ?? ''}${name === undefined ? '' : '$_'}${b1 ?? b2 ?? ''}"`)
      .replace(trailingName, (_m, a1?: string, a2?: string) => `"${a1 ?? a2 ?? ''}$_"`)
      .replace(leadingName, (_m, open: string, b1?: string, b2?: string) => `${open}"$_${b1 ?? b2 ?? ''}"`);
    if (next === glued) return glued;
    glued = next;
  }
  return glued;
};

/**
 * What code run by an interpreter would do that the floor stops. Code with juxtaposed literals is judged both as
 * written and glued (red team 4, m10): a pair matched across two literals' inner quotes only adds a reading.
 */
export const inlineCodeFindings = (code: string, index: ProtectionIndex, context: PathContext): CodeFinding[] => {
  const own = codeFindings(code, index, context);
  const namesGlued = gluesNames.test(code);
  if (own.length > 0 || (!mayJuxtapose.test(code) && !namesGlued)) return own;
  const glued = gluedLiterals(code);
  const gluedFindings = glued === code ? own : codeFindings(glued, index, context);
  if (gluedFindings.length > 0 || !namesGlued) return gluedFindings;
  // awk's `a="toll"; system(a b " x")`: its names read as their literals first, then glued (red team 8).
  const folded = foldLiterals(code);
  const foldedGlued = folded === code ? folded : gluedLiterals(folded);
  return foldedGlued === folded ? gluedFindings : codeFindings(foldedGlued, index, context);
};

/**
 * Code that writes where an imported module lives: `open(hmac.__file__, 'a')`, a path built from
 * `os.path.dirname(json.__file__)` or `inspect.getfile(m)` opened to write, `Path(m.__file__).write_text(…)`.
 */
const writesLoadedModule = /(?:(?:\b[A-Za-z_][\w.]*|[\])])\.__(?:file|path)__|inspect\.get(?:source)?file\s*\(|importlib\.util\.find_spec\s*\()[\s\S]{0,200}?(?:['"][rbt]*[wax+][rwaxbt+]*['"]\s*[,)]|\.write_(?:text|bytes)\s*\(|shutil\.(?:copy\w*|move)\s*\()/;

const codeFindings = (code: string, index: ProtectionIndex, context: PathContext): CodeFinding[] => {
  const findings: CodeFinding[] = [];
  const { pid, httpPort } = index.facts;
  const folded = foldLiterals(code);
  if (killCall.test(folded) && (pidIn(folded, pid) || guardedProcessWords.test(folded))) findings.push({ id: 'kill-guard', what: 'a signal to the daemon or Hermes' });
  else if ((killCall.test(folded) || /\.kill\s*\(/.test(folded)) && processWalk.test(folded)) findings.push({ id: 'kill-guard', what: 'a signal to processes found by walking the process list, the daemon perhaps among them' });
  else if (signalsEveryone(folded, pid)) findings.push({ id: 'kill-guard', what: 'a signal to every process of the user, the daemon among them' });
  const typed = codeTypesIntoTerminal(folded);
  if (typed !== null) findings.push({ id: 'answers-own-prompt', what: typed });
  if (writesLoadedModule.test(folded)) findings.push({ id: 'write-protected-path', what: "a loaded module's own file (its __file__), which every later Python start imports, Hermes' too" });
  // An archive unpacked into a folder that holds protected files (the working folder when none is given).
  for (const folder of codeExtractionFolders(folded)) {
    const absolute = resolvePath(folder, context)?.absolute;
    const inside = absolute == null ? null : containsProtected(absolute, index);
    if (inside !== null) { findings.push({ id: 'write-protected-path', what: `an archive unpacked into ${folder}, over ${inside.what}` }); break; }
  }
  const stopped = codeStopsDaemon(folded);
  if (stopped !== null) findings.push(stopped);
  const reached = codeReachesProcess(folded, pid);
  if (reached !== null) findings.push({ id: 'reaches-guard-process', what: reached });
  // The raw code too: the folds may have decoded what it decodes (runtimeStrings.ts), which stays a hidden command.
  if (((decoding.test(code) || decoding.test(folded)) && running.test(folded)) || decodedPath.test(code) || decodedPath.test(folded) || runsForeignCode.test(folded)
    || decodedPathVariable(code)) findings.push({ id: 'hidden-command', what: 'code that runs what it decoded or loaded' });
  const literals = pythonStringLiterals(code);
  // The interpreter it runs on (or node, python3 found by name), or a version manager's folder, removed or disabled (runtimeRemovals.ts).
  if (codeRemovesRuntime(folded) || (!isPlainRead(folded) && literals.some(isRuntimePath))) findings.push({ id: 'uninstall', what: 'the interpreter tollgate or Hermes runs on, removed or disabled from code' });
  // The literals glued as well (`'/app' + 'rove always'`), read only when the code posts a message at all.
  const posted = codeApprovalMessage(folded, () => [...literals, ...pythonStringLiterals(gluedLiterals(folded))]);
  if (posted !== null) findings.push({ id: 'answers-own-prompt', what: posted });
  if (httpPort !== null && (literals.some((l) => namesLoopbackPort(l, httpPort)) || codeReachesLoopbackPort(folded, httpPort) || literalPortUnknown(literals, folded, httpPort)))
    findings.push({ id: 'socket-client', what: `127.0.0.1:${httpPort}` });
  else if (httpPort !== null && codeListensOnPort(folded, httpPort)) findings.push({ id: 'socket-client', what: `a server on tollgate's port ${httpPort}` });
  // `http+unix://data%2Ftollgate.sock/…` and a glob for the socket (`glob('data/*.sock')`).
  for (const text of literals) {
    // `stream_socket_client('unix://data/tollgate.sock')`: a socket address in the guard's folders is its socket, whatever the folder's kind.
    const address = unixSocketLiteral(text);
    const addressed = address === null ? null : hitInText(address, context, index);
    if (addressed !== null && addressed.kind !== 'hermes-home') findings.push({ id: 'socket-client', what: addressed.what });
    const unix = /^http\+unix:\/\/([^/]+)/.exec(text);
    const socketPath = unix === null ? null : decodeURIComponent(unix[1]!);
    const hit = socketPath === null ? null : hitInText(socketPath, context, index);
    if (hit !== null && (hit.kind === 'socket' || hit.kind === 'socket-dir')) findings.push({ id: 'socket-client', what: hit.what });
    if (/\.sock\b/.test(text) && /[*?[]/.test(text) && index.sockets.some((s) => globMatches(text, s))) findings.push({ id: 'socket-client', what: text });
  }
  const glued = gluedSocketName(literals, index.sockets);
  if (glued !== null) findings.push({ id: 'socket-client', what: `a socket address ending in ${glued}` });
  // Strings handed to a shell are command lines: judged as shell text.
  // A list of literals is one command line (`subprocess.run(['pkill', '-f', 'tollgate'])`).
  // A program the code computes, before literal words a guard program acts on, is judged as each (unknownPrograms.ts).
  if (shellCalls.test(folded) || spawnCalls.test(folded)) for (const text of [...literals, ...literalLists(folded), ...callArgumentLists(folded), ...commandLiterals(folded), ...computedProgramCommands(folded)]) findings.push(...shellTextFindings(text, index, context));
  const control = controlInText(folded);
  if (control !== null && (shellCalls.test(folded) || spawnCalls.test(folded) || /\bsh\b|bash/.test(folded))) findings.push(control);
  // The code as written too: a fold reads `os.environ['HOME']` as `~`, and the assignment to it would be lost.
  else { const hermes = hermesCodeControl(folded) ?? (folded === code ? null : hermesCodeControl(code)); if (hermes !== null) findings.push(hermes); }
  // A protected path named by code that does more than read.
  const searched = withoutPrintedLiterals(folded);
  const hit = hitInText(searched, context, index);
  // A secret may not even be read; a socket named by code that only computes and prints is not connected to.
  // A socket path handed to a connect call (`stream_socket_client('unix://…')`) is connected to, however plain the rest.
  const connects = hit !== null && (hit.kind === 'socket' || hit.kind === 'socket-dir') && connectsSomewhere(folded);
  if (hit !== null && (hit.kind === 'secret' || connects || !isPlainRead(folded))) {
    // As in an execute_code cell: code that does more than read a Hermes home may reach any file of it
    // (`os.chdir('/srv/h'); os.remove('config.yaml')`), so the home itself counts as its protected files.
    const finding = pathFinding(hit.kind === 'hermes-home' && !isPlainRead(folded) ? { ...hit, kind: 'hermes-file' } : hit);
    if (finding !== null) findings.push(finding);
  }
  // `for r, d, f in os.walk('.tollgate'): open(…)`: a walk of a folder that holds the keys reads them (codeWalks.ts).
  if (!findings.some((f) => f.id === 'read-secret')) {
    const walked = codeWalkSecret(folded, literals, index, context);
    if (walked !== null) findings.push({ id: 'read-secret', what: walked });
  }
  // `os.symlink('/srv/h', '/tmp/x')`, `fs.rmSync('.', …)`: a folder above something protected, linked, moved or removed whole.
  if (changesWholeTrees.test(folded)) {
    for (const text of literals) {
      const absolute = text === '' || /\s/.test(text) ? null : resolvePath(text, context)?.absolute ?? null;
      const inside = absolute === null ? null : containsProtected(absolute, index);
      if (inside !== null) { findings.push({ id: 'write-protected-path', what: `${text}, linked, moved or removed whole by code` }); break; }
    }
  }
  return findings;
};

/**
 * The literals of each `[...]` or `(...)` list of literals, joined by spaces; a literal just before the list is its
 * program (`execFileSync("hermes", ["config", …])`, `spawn('rm', ['-rf', …])`).
 */
const literalLists = (code: string): string[] => [
  ...bareCallLists(code),
  ...[...code.matchAll(/(?:([rRbBuU]{0,2}(?:'[^'\n]*'|"[^"\n]*"))\s*,\s*)?[[(]\s*((?:[rRbBuU]{0,2}(?:'[^'\n]*'|"[^"\n]*")\s*,\s*)*[rRbBuU]{0,2}(?:'[^'\n]*'|"[^"\n]*"))\s*,?\s*[\])]/g)]
    .filter((m) => m[1] !== undefined || m[2]!.includes(','))
    .map((m) => [...`${m[1] ?? ''} ${m[2]!}`.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((l) => l[1] ?? l[2] ?? '').join(' ')),
];

/** Perl's and Tcl's `exec "hermes", "config", …` and `system 'rm', '-rf', …`: a list of literals with no brackets. */
const bareCallLists = (code: string): string[] =>
  !code.includes(',') ? [] : [...code.matchAll(/\b(?:exec|system)\s+((?:'[^'\n]*'|"[^"\n]*")(?:\s*,\s*(?:'[^'\n]*'|"[^"\n]*"))+)/g)]
    .map((m) => [...m[1]!.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((l) => l[1] ?? l[2] ?? '').join(' '));

/** Whether a glob (its last segment matched against the path's name) could name the socket. */
const globMatches = (glob: string, path: string): boolean => {
  const name = glob.split('/').pop() ?? glob;
  const source = name.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  try {
    return new RegExp(`^${source}$`).test(path.split('/').pop() ?? path);
  } catch {
    return true;
  }
};

/** Lines of a shell script that write, delete, move or connect: the commands that may reach a protected path. */
const writingLine = /(?:>|\b(?:rm|mv|cp|ln|sed\s+-i|tee|truncate|chmod|chown|dd|install|rsync|tar|unzip|unlink|shred|sqlite3|curl|wget|nc|ncat|socat|touch|python[0-9.]*|node|perl|ruby|git)\b)/;

/** `pkill -f serve`, `kill -9 -1` in a script or a list of literals: each kill command's words, judged as the shell row judges them. */
const killLineReachesGuard = (text: string, pid: number | null): boolean =>
  text.split(/[\n;&|]+/).some((segment) => {
    const start = /(?:^|[\s(`'"])((?:\S*\/)?(?:pkill|killall|skill|kill))\s/.exec(segment);
    if (start === null) return false;
    const words = segment.slice(start.index + start[0].length - start[1]!.length - 1).trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
    return killWordsReachGuard(words, pid);
  });

const wrappers: ReadonlySet<string> = new Set(['sudo', 'env', 'nohup', 'exec', 'command', 'time', 'nice', 'setsid', 'stdbuf']);

/** A script's commands read roughly (blank-split words, `> target` as a redirect, a `|` before as a pipe), for the one-command rows. */
const roughCommands = (text: string): SimpleCommand[] => {
  const out: SimpleCommand[] = [];
  for (const part of text.split(/(?=\|)|[\n;&]+/)) {
    const piped = part.startsWith('|');
    const words = part.replace(/^\|+/, '').trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, '')).filter((w) => w !== '');
    while (words.length > 0 && (wrappers.has(words[0]!) || /^[A-Za-z_]\w*=/.test(words[0]!))) words.shift();
    if (words.length === 0) continue;
    const redirects: { op: string; target: string }[] = [];
    const args: string[] = [];
    for (let i = 1; i < words.length; i++) {
      const r = /^(\d*>>?|<<?<?)(.*)$/.exec(words[i]!);
      if (r === null) { args.push(words[i]!); continue; }
      const target = r[2] !== '' ? r[2]! : words[++i] ?? '';
      redirects.push({ op: r[1]!.replace(/^\d+/, ''), target });
    }
    out.push({ program: programName(words[0]!), programPath: words[0]!, args, redirects, pipedFrom: piped ? ['?'] : [], via: [], text: part.trim() });
  }
  return out;
};

/** The first word with an expansion and a folder in it that names a protected file (of a Hermes home, say) as a path would. */
const unknownPartHit = (line: string, context: PathContext, index: ProtectionIndex): PathHit | null => {
  for (const token of line.match(/[^\s'"(),;=[\]{}<>|&]+/g) ?? []) {
    if (!token.includes('$') || !token.includes('/')) continue;
    const hit = hitOf(token, context, index);
    if (hit !== null && hit.kind !== 'hermes-home') return hit;
  }
  return null;
};

/** What a shell script's text would do that the floor stops (a textual reading: the script is not parsed). */
/** `runLater`: the text is run by another program or a later start (laterScripts.ts), so the scripts it runs must be the system's. */
export const shellTextFindings = (text: string, index: ProtectionIndex, context: PathContext, runLater = false): CodeFinding[] => {
  const findings: CodeFinding[] = [];
  const unread = runLater ? unreadScriptRun(text) : null;
  if (unread !== null) findings.push({ id: 'hidden-command', what: `${unread}, a script run later that the floor cannot read then` });
  const control = controlInText(text);
  if (control !== null) findings.push(control);
  if (shellKill.test(text) || (/\bkill\b/.test(text) && pidIn(text, index.facts.pid)) || killLineReachesGuard(text, index.facts.pid))
    findings.push({ id: 'kill-guard', what: 'a signal to the daemon or Hermes' });
  if (/\|\s*(?:ba|z|da|k)?sh\b/.test(text) && /\b(?:base64|xxd|curl|wget)\b/.test(text)) findings.push({ id: 'hidden-command', what: 'decoded or downloaded text run by a shell' });
  const port = index.facts.httpPort;
  if (port !== null && text.split(/[\s'"]+/).some((w) => namesLoopbackPort(w, port))) findings.push({ id: 'socket-client', what: `127.0.0.1:${port}` });
  // Keystrokes into another terminal and other reaches of the guard's process, command by command.
  for (const command of roughCommands(text)) {
    const typed = typesIntoTerminal(command);
    if (typed !== null) { findings.push({ id: 'answers-own-prompt', what: typed }); break; }
    const reached = reachesGuardProcess(command, index.facts.pid, port);
    if (reached !== null) { findings.push({ id: 'reaches-guard-process', what: reached }); break; }
    const stopped = textCommandReach(command, index.facts.pid, port);
    if (stopped !== null) { findings.push(stopped); break; }
    // `nc -l $(cat f)` with f holding the port: a fake daemon on tollgate's port.
    const listener = listensOnGuardPort(command, port);
    if (listener !== null) { findings.push({ id: 'socket-client', what: listener }); break; }
  }
  for (const line of text.split('\n')) {
    let hit = hitInText(line, context, index);
    if (hit === null) continue;
    // `rm -rf /srv/h/$_gins` (an unknown part glued in): the home's mention hides that any file of it may be named.
    if (hit.kind === 'hermes-home' && line.includes('$')) hit = unknownPartHit(line, context, index) ?? hit;
    if (hit.kind === 'secret' || hit.kind === 'socket' || hit.kind === 'socket-dir' || writingLine.test(line)) {
      const finding = pathFinding(hit);
      if (finding !== null) findings.push(finding);
    }
  }
  return findings;
};

/** Whether a path is a shell's startup or logout file (placedCode.ts' table): its lines run as commands later. */
export const isShellStartupFile = (path: string): boolean => shellStartupFile.test(path);


/** A file written now that a shell or Python would run later: its name or its first line says which. */
export const scriptLanguage = (path: string, content: string): 'shell' | 'python' | 'node' | null => {
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(content);
  const interpreter = shebang === null ? '' : (shebang[1]!.endsWith('/env') ? shebang[2] ?? '' : shebang[1]!).split('/').pop()!;
  if (/^(?:ba|z|da|k|mk)?sh$/.test(interpreter) || /\.(?:sh|bash|zsh|ksh)$/.test(path) || shellStartupFile.test(path)) return 'shell';
  // A systemd unit's Exec lines are command lines run later (`systemctl link` takes it in from anywhere).
  if (/\.(?:service|timer|socket|path)$/.test(path) || /^\[(?:Unit|Service)\]/m.test(content)) return 'shell';
  if (/^python[0-9.]*$/.test(interpreter) || /\.pyw?$/.test(path)) return 'python';
  if (/^(?:node|nodejs|bun|deno)$/.test(interpreter) || /\.(?:c|m)?js$/.test(path)) return 'node';
  // Without a shebang the shell runs it: a git hook (any clone's) or a file in a folder on PATH (placedCode.ts).
  return runLaterPlace(path, null) !== null ? 'shell' : null;
};
