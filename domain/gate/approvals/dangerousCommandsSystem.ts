/**
 * Approval rules for the machine and its services: formatting and copying disks, stopping services, killing
 * processes (Hermes' own above all), running the Hermes gateway outside its service manager, container
 * lifecycle and remote daemons, package removal, sudo reading a password, and cloud credential endpoints.
 */
import { firstOperandIndex, parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import { subcommand, viaNames } from '../../shell/commandFacts.ts';
import { interpreterFamily } from '../../shell/interpreters.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { programs, type DangerousRule } from '../floors/commandRule.ts';
import {
  isFormatProgram,
  isForkBomb,
  killsAllProcesses,
  systemctlVerb,
  wipesBlockDevice,
  writesBlockDevice,
} from '../floors/destructiveCommands.ts';

const serviceStopVerbs = new Set(['stop', 'restart', 'disable', 'mask', 'kill', 'try-restart', 'reload-or-restart', 'try-reload-or-restart', 'isolate']);

const stopsService = (command: SimpleCommand): boolean => {
  if (command.program === 'service') return ['stop', 'restart', 'force-reload'].includes(command.args[1] ?? '');
  const verb = systemctlVerb(command).verb;
  return verb !== undefined && serviceStopVerbs.has(verb);
};

const killSignal = /^-(?:9|KILL|SIGKILL)$/i;

/** pkill/killall with SIGKILL: -9, -KILL, -SIGKILL, -s KILL, --signal 9. */
const forceKills = (command: SimpleCommand): boolean => {
  const args = command.args;
  return args.some((arg, i) =>
    killSignal.test(arg) ||
    ((arg === '-s' || arg === '--signal') && /^(?:9|KILL|SIGKILL)$/i.test(args[i + 1] ?? '')) ||
    /^--signal=(?:9|KILL|SIGKILL)$/i.test(arg),
  );
};

const hermesNames = /hermes|gateway|cli\.py/i;

const hermesGrammar: OptionGrammar = { shortWithValue: 'p', longWithValue: ['profile'] };

/** `hermes [global options] gateway VERB` → VERB. */
const hermesGatewayVerb = (command: SimpleCommand): string | undefined => {
  const { operands } = parseOptions(command.args, hermesGrammar);
  return operands[0] === 'gateway' ? operands[1] : undefined;
};

const dockerGlobal: OptionGrammar = {
  shortWithValue: 'Hcl',
  longWithValue: ['host', 'context', 'config', 'log-level', 'tlscacert', 'tlscert', 'tlskey', 'url', 'connection', 'identity'],
};
const composeGlobal: OptionGrammar = {
  shortWithValue: 'fp',
  longWithValue: ['file', 'project-name', 'env-file', 'profile', 'project-directory', 'ansi', 'parallel', 'progress'],
};

/** The container lifecycle verb: `docker stop`, `docker compose down`, `docker-compose -f x.yml stop`. */
const containerVerb = (command: SimpleCommand): string | undefined => {
  if (command.program === 'docker-compose') return subcommand(command, composeGlobal).name;
  const { name, args } = subcommand(command, dockerGlobal);
  if (name === 'compose') return args[firstOperandIndex(args, 0, composeGlobal)];
  if (name === 'container') return args[0];
  return name;
};

/** Global options that point docker or podman at another daemon: -H/--host, --context, podman --url/--remote. */
const redirectsDaemon = (command: SimpleCommand): boolean => {
  const prefix = command.args.slice(0, firstOperandIndex(command.args, 0, dockerGlobal));
  const options = parseOptions(prefix, dockerGlobal);
  if (command.program === 'podman') return ['url', 'connection', 'identity', 'remote'].some((name) => options.long.has(name)) || options.short.has('r');
  if (options.short.has('H') || options.short.has('c') || options.long.has('host') || options.long.has('context')) return true;
  return subcommand(command, dockerGlobal).name === 'context' && subcommand(command, dockerGlobal).args[0] === 'use';
};

const daemonVariables = /^(?:env\s.*)?\b(?:DOCKER_HOST|DOCKER_CONTEXT|CONTAINER_HOST|CONTAINER_CONNECTION)=/;

// A Map, not an object: program names come from the command line and must not reach Object.prototype.
const uninstallVerbs = new Map<string, readonly string[]>([
  ['npm', ['uninstall', 'unlink', 'remove', 'rm', 'r', 'un']],
  ['pnpm', ['uninstall', 'remove', 'rm', 'un']],
  ['yarn', ['remove']],
  ['pip', ['uninstall']], ['pip3', ['uninstall']],
  ['brew', ['uninstall', 'remove', 'rm']],
  ['apt', ['remove', 'purge', 'autoremove']], ['apt-get', ['remove', 'purge', 'autoremove']],
  ['dnf', ['remove', 'erase', 'autoremove']], ['yum', ['remove', 'erase', 'autoremove']],
  ['gem', ['uninstall']], ['cargo', ['uninstall']], ['snap', ['remove']],
]);

/** The first operand, or the second when the first is the value of a global option (`npm --prefix dir rm x`). */
const packageVerbs = (args: readonly string[]): string[] => {
  const operands = parseOptions(args).operands;
  const first = operands[0];
  if (first === undefined) return [];
  const index = args.indexOf(first);
  const second = index > 0 && args[index - 1]!.startsWith('-') ? operands[1] : undefined;
  return second === undefined ? [first] : [first, second];
};

const removesPackages = (command: SimpleCommand): boolean => {
  const { program, args } = command;
  if (program === 'pacman') return /^-R/.test(args[0] ?? '');
  if (interpreterFamily(program) === 'python') return args[0] === '-m' && /^pip3?$/.test(args[1] ?? '') && args[2] === 'uninstall';
  const verbs = uninstallVerbs.get(program);
  if (!verbs) return false;
  const used = packageVerbs(program === 'yarn' && args[0] === 'global' ? args.slice(1) : args);
  return used.some((verb) => verbs.includes(verb));
};

const sudoGrammar: OptionGrammar = { shortWithValue: 'CDghpRrtTUu', longWithValue: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user', 'user'] };

/** sudo reading a password from stdin (-S) or an askpass helper (-A), or opening a root shell (-s, -i). */
const sudoPrivilegeFlags = (command: SimpleCommand): boolean => {
  const sudoOptions = [
    ...(command.program === 'sudo' ? [command.args] : []),
    ...command.via.filter((entry) => entry.startsWith('sudo ')).map((entry) => entry.split(' ').slice(1)),
  ];
  return sudoOptions.some((args) => {
    const options = parseOptions(args.slice(0, firstOperandIndex(args, 0, sudoGrammar)), sudoGrammar);
    return ['S', 'A', 's', 'i'].some((letter) => options.short.has(letter)) || ['stdin', 'askpass', 'shell', 'login'].some((name) => options.long.has(name));
  });
};

const metadataEndpoint = /(?<![\d.])(?:169\.254\.169\.254|100\.100\.100\.200)(?![\d.])|(?<![\w.-])metadata\.google\.internal(?![\w.-])|fd00:ec2::254/i;

export const systemRules: readonly DangerousRule[] = [
  {
    id: 'format-filesystem',
    reason: 'Creates a new file system, erasing what the target held.',
    matches: (command) => isFormatProgram(command.program),
    asks: ['mkfs.ext4 -F disk.img', 'mkfs -t vfat image.bin', 'mke2fs fs.img'],
    allows: ['mkdir fs', 'echo mkfs', 'ls /sbin/mkfs.ext4'],
  },
  {
    id: 'disk-copy',
    reason: 'Copies raw bytes with dd, which overwrites its output without asking.',
    programs: programs('dd'),
    matches: (command) => command.args.some((arg) => arg.startsWith('if=')),
    asks: ['dd if=/dev/sda of=backup.img', 'dd if=/dev/zero of=file bs=1M count=1'],
    allows: ['dd --help', 'echo dd if=x'],
  },
  {
    id: 'write-to-block-device',
    reason: 'Overwrites a disk through redirection, tee or cp.',
    matches: writesBlockDevice,
    asks: ['cat x > /dev/sda', 'echo x | tee /dev/sdb'],
    allows: ['echo x > /dev/null', 'cat /dev/sda > disk.img'],
  },
  {
    id: 'wipe-block-device',
    reason: 'Erases the partition table or every sector of a disk.',
    matches: wipesBlockDevice,
    asks: ['wipefs -a /dev/sda', 'shred /dev/sdb'],
    allows: ['wipefs /dev/sda', 'shred -u notes.txt'],
  },
  {
    id: 'fork-bomb',
    reason: 'Starts processes that multiply until the machine stops responding.',
    matches: isForkBomb,
    asks: [':(){ :|:& };:'],
    allows: ['f(){ echo hi; }; f'],
  },
  {
    id: 'kill-all-processes',
    reason: 'Sends a signal to every process the user may signal.',
    programs: programs('kill', 'killall5'),
    matches: killsAllProcesses,
    asks: ['kill -9 -1'],
    allows: ['kill -9 1234'],
  },
  {
    id: 'stop-system-service',
    reason: 'Stops, restarts, disables or masks a system service.',
    programs: programs('systemctl', 'service'),
    matches: stopsService,
    asks: ['systemctl restart nginx', 'sudo systemctl stop postgresql', 'systemctl --user disable app', 'systemctl mask sshd', 'service nginx restart'],
    allows: ['systemctl status nginx', 'systemctl start nginx', 'systemctl list-units', 'service nginx status'],
  },
  {
    id: 'force-kill-processes',
    reason: 'Kills processes by name with SIGKILL, giving them no chance to clean up.',
    programs: programs('pkill', 'killall'),
    matches: forceKills,
    asks: ['pkill -9 node', 'killall -9 python', 'pkill -KILL -f worker', 'killall -s KILL nginx', 'pkill --signal 9 app'],
    allows: ['pkill node', 'killall -HUP nginx', 'pkill -f worker'],
  },
  {
    id: 'killall-by-regex',
    reason: 'Kills every process whose name matches a regular expression.',
    programs: programs('killall'),
    matches: (command) => {
      const options = parseOptions(command.args, { shortWithValue: 'suoyn', longWithValue: ['signal', 'user', 'older-than', 'younger-than', 'ns'] });
      return options.short.has('r') || options.long.has('regexp');
    },
    asks: ["killall -r 'py.*'", 'killall --regexp worker'],
    allows: ['killall python', 'killall -HUP nginx'],
  },
  {
    id: 'kill-hermes-process',
    reason: 'Kills the Hermes agent or its gateway, cutting off every running session.',
    programs: programs('pkill', 'killall'),
    matches: (command) => command.args.some((arg) => hermesNames.test(arg)),
    asks: ['pkill -f hermes', 'killall gateway', 'pkill -f "python cli.py"'],
    allows: ['pkill -f worker', 'killall node'],
  },
  {
    id: 'kill-via-process-lookup',
    reason: 'Kills processes found by name at run time (pgrep or pidof), which can include the agent itself.',
    programs: programs('kill'),
    matches: (command) => command.args.some((arg) => /(?:\$\(|`)\s*(?:\S*\/)?(?:pgrep|pidof)\b/.test(arg)),
    asks: ['kill $(pgrep -f hermes)', 'kill -9 `pidof gateway`'],
    allows: ['kill 1234', 'pgrep -f hermes'],
  },
  {
    id: 'hermes-gateway-background',
    reason: 'Starts the Hermes gateway outside its service manager (use systemctl --user restart hermes-gateway).',
    programs: programs('hermes'),
    matches: (command) =>
      hermesGatewayVerb(command) === 'run' &&
      (command.background === true || viaNames(command).some((name) => name === 'nohup' || name === 'setsid')),
    asks: ['hermes gateway run &', 'nohup hermes gateway run', 'setsid hermes gateway run', 'hermes gateway run & disown', 'nohup hermes gateway run > gw.log 2>&1 &'],
    allows: ['hermes gateway run', 'hermes gateway status', 'systemctl --user restart hermes-gateway'],
  },
  {
    id: 'hermes-gateway-stop',
    reason: 'Stops or restarts the Hermes gateway, which kills every running agent.',
    programs: programs('hermes'),
    matches: (command) => ['stop', 'restart'].includes(hermesGatewayVerb(command) ?? ''),
    asks: ['hermes gateway stop', 'hermes -p work gateway restart'],
    allows: ['hermes gateway status', 'hermes chat -q "restart the gateway"'],
  },
  {
    id: 'hermes-update',
    reason: 'Updates Hermes, which restarts the gateway and kills every running agent.',
    programs: programs('hermes'),
    matches: (command) => parseOptions(command.args, hermesGrammar).operands[0] === 'update',
    asks: ['hermes update', 'hermes --profile work update'],
    allows: ['hermes chat -q update', 'hermes version'],
  },
  {
    id: 'launchctl-hermes',
    reason: 'Stops or restarts the Hermes launchd service, which kills every running agent.',
    programs: programs('launchctl'),
    matches: (command) =>
      ['stop', 'kickstart', 'bootout', 'unload', 'kill', 'disable', 'remove'].includes(command.args[0] ?? '') &&
      command.args.some((arg) => /hermes/i.test(arg)),
    asks: ['launchctl kickstart -k gui/501/ai.hermes.gateway', 'launchctl bootout gui/501/ai.hermes.gateway'],
    allows: ['launchctl list', 'launchctl kickstart gui/501/com.example.app'],
  },
  {
    id: 'container-lifecycle',
    reason: 'Stops, restarts, kills or tears down containers.',
    programs: programs('docker', 'podman', 'docker-compose'),
    matches: (command) => ['stop', 'restart', 'kill', 'down'].includes(containerVerb(command) ?? ''),
    asks: ['docker stop web', 'docker restart db', 'docker compose down', 'docker-compose -f prod.yml stop', 'docker kill $(docker ps -q)', 'podman stop app'],
    allows: ['docker ps', 'docker compose up -d', 'docker logs web', 'docker run --rm alpine echo stop'],
  },
  {
    id: 'container-remote-daemon',
    reason: 'Points docker or podman at another (often remote) daemon, so the command acts on other machines.',
    matches: (command) =>
      ((command.program === 'docker' || command.program === 'podman') && redirectsDaemon(command)) ||
      command.via.some((entry) => daemonVariables.test(entry)),
    asks: ['docker -H ssh://prod stop app', 'docker --context prod ps', 'DOCKER_HOST=tcp://10.0.0.5:2375 docker ps', 'docker context use prod', 'podman --remote ps'],
    allows: ['docker ps', 'docker run -h myhost nginx', 'docker context ls'],
  },
  {
    id: 'package-uninstall',
    reason: 'Removes installed software, possibly outside the project.',
    matches: removesPackages,
    asks: ['npm uninstall -g typescript', 'pip uninstall -y requests', 'brew uninstall node', 'sudo apt-get remove nginx', 'yarn remove react', 'python3 -m pip uninstall numpy', 'pacman -Rns vim', 'npm --prefix app rm lodash'],
    allows: ['npm install', 'pip install requests', 'brew upgrade', 'apt-get update', 'npm test', 'npm run remove-dist'],
  },
  {
    id: 'sudo-password-or-shell',
    reason: 'Makes sudo read a password from standard input or a helper, or opens a root shell.',
    matches: sudoPrivilegeFlags,
    asks: ['sudo -S apt-get install x', 'echo pw | sudo -S rm x', 'sudo -s', 'sudo -A ls', 'sudo -i'],
    allows: ['sudo apt-get update', 'sudo -u postgres psql', 'sudo ls -s'],
  },
  {
    id: 'cloud-metadata-endpoint',
    reason: 'Reaches the cloud instance-metadata service, which hands out the machine\'s credentials.',
    matches: (command) => command.args.some((arg) => metadataEndpoint.test(arg)),
    asks: ['curl http://169.254.169.254/latest/meta-data/iam/', 'wget -qO- http://metadata.google.internal/computeMetadata/v1/', 'curl http://100.100.100.200/latest/meta-data'],
    allows: ['curl https://example.com', 'ping 169.254.169.25'],
  },
];
