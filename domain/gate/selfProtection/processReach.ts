/**
 * Reaching the daemon's or Hermes' process other than by a kill: destroying its sockets (`ss -K`), lowering the
 * kernel settings that keep other processes' memory closed (`kernel.yama.ptrace_scope`), reading or writing a
 * process's memory, environment or descriptors through /proc, and containers that see the whole machine or its
 * processes (`-v /:/host`, `--pid=host`).
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/**
 * Kernel settings that keep one process out of another (dotted as sysctl writes them): ptrace and perf attach,
 * core dumps of privileged processes, the core-dump pipe (runs a program as root on any crash), link protections.
 */
export const guardingKernelSettings: readonly string[] = [
  'kernel.yama.ptrace_scope', 'kernel.perf_event_paranoid', 'kernel.core_pattern', 'fs.suid_dumpable', 'fs.protected_symlinks',
  'fs.protected_hardlinks', 'fs.protected_fifos', 'fs.protected_regular', 'kernel.kptr_restrict',
  // The magic SysRq keys: enabling them lets /proc/sysrq-trigger kill every task (i, e) or reboot (b) at once.
  'kernel.sysrq',
];
const settingPaths = guardingKernelSettings.map((s) => `/proc/sys/${s.replace(/\./g, '/')}`);
const settingNames = new Set([...guardingKernelSettings, ...guardingKernelSettings.map((s) => s.replace(/\./g, '/'))]);

/** A sysctl write (`sysctl [-w] NAME=VALUE`), or a write to /proc/sys/…, of one of those settings. */
const lowersKernelGuard = (command: SimpleCommand): string | null => {
  const { program, args } = command;
  if (program === 'sysctl') {
    for (const a of args) {
      const name = /^([a-z0-9_./-]+)\s*=/.exec(a)?.[1];
      if (name !== undefined && settingNames.has(name)) return name;
    }
    // `sysctl -p FILE`, `--system`, `--load`: settings from a file the floor does not read.
    if (args.some((a) => /^-[a-zA-Z]*p/.test(a) || a === '--system' || a.startsWith('--load'))) return 'settings loaded from a file';
  }
  const targets = [...command.redirects.filter((r) => /^(?:\d*>>?|>\||&>>?|<>)$/.test(r.op)).map((r) => r.target),
    ...(['tee', 'cp', 'dd', 'install', 'mv'].includes(program) ? args.map((a) => a.replace(/^of=/, '')) : [])];
  const hit = targets.find((t) => settingPaths.some((p) => t === p || t.replace(/\/+$/, '') === p) || (t.startsWith('/proc/sys/') && /[*?[$`]/.test(t)) || cgroupControl.test(t) || t === '/proc/sysrq-trigger');
  return hit ?? null;
};

/**
 * cgroup files that freeze, kill, move or starve every process of a group (the agent's user slice holds the daemon
 * and Hermes): `echo 1 > …/cgroup.freeze`, `echo 1 > …/cgroup.kill`, `echo PID > …/cgroup.procs`, `cpu.max`.
 */
const cgroupControl = /^\/sys\/fs\/cgroup\/.*(?:cgroup\.(?:freeze|kill|procs|threads|max\.\w+)|cpu\.max|cpu\.weight\w*|memory\.(?:max|high)|pids\.max|freezer\.state|tasks)$/;

/** Parts of /proc/PID/ that open a process's memory, environment, descriptors or file system. */
const processInsides = /^\/proc\/([^/]+)\/(?:task\/[^/]+\/)?(mem|environ|fd|fdinfo|map_files|root|cwd|pagemap|syscall)(?:\/|$)/;
const ownProcess = /^(?:self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\})$/;
const lookers: ReadonlySet<string> = new Set(['ls', 'stat', 'file', 'readlink', 'realpath', 'test', '[', '[[', 'basename', 'dirname', 'du']);

/** `/proc/4242/mem`, `/proc/$(pgrep -f hermes)/environ`, `/proc/*\/fd/3`: another process's insides, the daemon's if its pid is unknown. */
const processInsideWord = (word: string, pid: number | null): string | null => {
  const m = processInsides.exec(word.replace(/^(?:if|of)=/, ''));
  if (m === null || ownProcess.test(m[1]!)) return null;
  const who = m[1]!;
  if (/^\d+$/.test(who)) return pid !== null && Number(who) === pid ? word : null;
  return word;
};

const readsProcessInsides = (command: SimpleCommand, pid: number | null): string | null => {
  if (lookers.has(command.program)) return null;
  for (const w of [...command.args, ...command.redirects.map((r) => r.target)]) {
    if (!w.includes('/proc/')) continue;
    const hit = processInsideWord(w, pid);
    if (hit !== null) return hit;
  }
  return null;
};

/** `ss -K [FILTER]`: the sockets matching the filter are destroyed — the guard's when the filter names its port or nothing. */
const killsSockets = (command: SimpleCommand, port: number | null): string | null => {
  const { program, args } = command;
  if (program === 'ss' && args.some((a) => a === '--kill' || /^-[a-zA-Z]*K/.test(a))) {
    const filter = args.filter((a) => !a.startsWith('-'));
    if (filter.length === 0) return 'every socket';
    const text = filter.join(' ');
    if (/[$`]/.test(text)) return `sockets named by ${text}`;
    // The filter's ports: `dport = 8787`, `sport = :8787`, `'( dport = :8787 )'`; no port at all matches the guard's too.
    const ports = [...text.matchAll(/(?:^|[\s:(=<>])(\d{1,5})(?![\d.])/g)].map((m) => Number(m[1]));
    return ports.length === 0 || (port !== null && ports.includes(port)) ? `sockets matching ${text}` : null;
  }
  // dsniff's tcpkill and cutter reset connections on a port.
  if ((program === 'tcpkill' || program === 'cutter') && (port === null || args.includes(String(port)) || args.some((a) => /[$`]/.test(a)))) return `${program} ${args.join(' ')}`;
  return null;
};

/** docker/podman/nerdctl: the host folders mounted (`-v H:C`, `--volume=H:C`, `--mount type=bind,source=H,…`). */
export const containerMounts = (args: readonly string[]): { host: string; readOnly: boolean }[] => {
  const out: { host: string; readOnly: boolean }[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const volume = a === '-v' || a === '--volume' ? args[++i] : /^(?:-v|--volume=)(.+)$/.exec(a)?.[1];
    if (volume !== undefined) { out.push({ host: volume.split(':')[0]!, readOnly: /:(?:[a-zA-Z,]*,)?ro(?:,|$)/.test(volume) }); continue; }
    const mount = a === '--mount' ? args[++i] : /^--mount=(.+)$/.exec(a)?.[1];
    if (mount === undefined) continue;
    const fields = new Map(mount.split(',').map((f) => { const at = f.indexOf('='); return at < 0 ? [f, 'true'] as const : [f.slice(0, at), f.slice(at + 1)] as const; }));
    const host = fields.get('source') ?? fields.get('src');
    if ((fields.get('type') ?? 'volume') === 'bind' && host !== undefined) out.push({ host, readOnly: fields.has('readonly') || fields.has('ro') });
  }
  return out;
};

const containerRunners: ReadonlySet<string> = new Set(['docker', 'podman', 'nerdctl']);

/** A container given the host's root folder or its process table: the guard's files and processes are inside it. */
const seesWholeMachine = ({ program, args }: SimpleCommand): string | null => {
  if (!containerRunners.has(program) || !args.some((a) => a === 'run' || a === 'create' || a === 'exec')) return null;
  const root = containerMounts(args).find((m) => /^\/+\.?\/*$/.test(m.host));
  if (root !== undefined) return 'the host\'s root folder mounted in a container';
  if (args.some((a, i) => a === '--pid=host' || (a === '--pid' && args[i + 1] === 'host'))) return 'a container in the host\'s process table';
  return null;
};

/** `nsenter -t 4242 -m sh`: the grammar unwraps nsenter, so its target is read from how the command was reached. */
const entersGuardNamespaces = (command: SimpleCommand, pid: number | null): string | null => {
  const entry = command.via.find((v) => v.startsWith('nsenter'));
  const target = entry === undefined ? undefined : /\s(?:-[a-zA-Z]*t\s*|--target[=\s])(\S+)/.exec(entry)?.[1];
  if (target === undefined) return null;
  return /[$`]/.test(target) || (pid !== null && /^\d+$/.test(target) && Number(target) === pid) ? `the namespaces of process ${target}` : null;
};

/** What the command reaches of the guard's processes, other than by a signal. */
export const reachesGuardProcess = (command: SimpleCommand, pid: number | null, port: number | null): string | null =>
  lowersKernelGuard(command) ?? killsSockets(command, port) ?? readsProcessInsides(command, pid) ?? seesWholeMachine(command) ?? entersGuardNamespaces(command, pid);

/** Reading or writing another process from code: its /proc insides, process_vm_readv/writev, a ptrace attach, a kernel setting. */
// Node's `process._debugProcess(pid)` turns the inspector on in another Node process (the daemon is one).
const codeAttach = /\b(?:process_vm_readv|process_vm_writev|PTRACE_ATTACH|PTRACE_SEIZE|PTRACE_POKE\w*|_debugProcess)\b/;

/** What code reaches of another process (the daemon's, when its pid is unknown), or null. */
export const codeReachesProcess = (code: string, pid: number | null): string | null => {
  if (codeAttach.test(code)) return 'another process\'s memory, through ptrace or process_vm';
  if (!code.includes('/proc/')) return null;
  for (const m of code.matchAll(/\/proc\/[^\s'"()]+/g)) {
    const hit = processInsideWord(m[0], pid);
    if (hit !== null) return hit;
    if (settingPaths.some((p) => m[0].startsWith(p)) && /\bwrite|['"][wa]\+?['"]|>/.test(code)) return m[0];
  }
  return null;
};

export const processReachExamples = {
  stops: ['ss -K dport = 8787', "ss -K '( sport = :8787 )'", 'ss -tK', 'ss --kill dst 127.0.0.1', 'tcpkill -i lo port 8787', 'sysctl -w kernel.yama.ptrace_scope=0',
    'sysctl kernel.yama.ptrace_scope=0', 'sudo sysctl kernel/yama/ptrace_scope=0', "sysctl -w kernel.core_pattern='|/tmp/x'", 'sysctl -p /tmp/s.conf',
    'echo 0 > /proc/sys/kernel/yama/ptrace_scope', 'echo b > /proc/sysrq-trigger', 'echo 1 > /proc/sys/kernel/sysrq && echo i > /proc/sysrq-trigger', 'echo e | sudo tee /proc/sysrq-trigger', 'sysctl -w kernel.sysrq=1', 'echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope', "echo '|/tmp/x' > /proc/sys/kernel/core_pattern",
    'dd if=/proc/$(pgrep -f hermes)/mem bs=1 skip=4096 count=64', 'cat /proc/4242/environ', 'cat /proc/$PPID/environ', 'ls -l /proc/4242/fd && cat /proc/4242/fd/3',
    'cp /proc/4242/root/home/agent/project/data/http-token /tmp/t', 'tr "\\0" "\\n" < /proc/$(pidof node)/environ', 'grep -a token /proc/*/environ',
    'docker run --rm -v /:/host alpine chroot /host sh', 'docker run --rm --volume=/:/h:ro alpine cat /h/etc/hostname', 'podman run --mount type=bind,source=/,target=/h alpine sh',
    'echo 1 > /sys/fs/cgroup/user.slice/user-1000.slice/cgroup.freeze', 'echo 1 | tee /sys/fs/cgroup/user.slice/cgroup.kill', 'echo FROZEN > /sys/fs/cgroup/freezer/x/freezer.state',
    'docker run --pid=host --privileged alpine kill 1', 'docker run --pid host alpine ps', 'nsenter -t 4242 -m sh', 'sudo nsenter --target $(pgrep -f tollgate) -a cat /x'],
  allows: ['ss -tlnp', 'ss -K dport = 5432', 'ss -s', 'sysctl kernel.yama.ptrace_scope', 'sysctl -a', 'sysctl -w net.ipv4.ip_forward=1', 'cat /proc/sys/kernel/yama/ptrace_scope',
    'cat /proc/self/environ', 'ls /proc/$$/fd', 'cat /proc/1234/environ', 'cat /proc/$pid/status', 'ls -l /proc/$(pgrep node)/fd', 'cat /proc/cpuinfo', 'cat /sys/fs/cgroup/user.slice/cgroup.procs',
    'docker run --rm -v $PWD/src:/src alpine ls /src', 'docker run -v /tmp/x:/w alpine ls', 'docker run --mount type=volume,source=data,target=/d alpine ls', 'docker ps', 'nsenter -t 1234 -n ip addr'],
};
