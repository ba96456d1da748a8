/**
 * Matchers for commands with no way back: wiping the root, system or home directories, formatting or
 * overwriting a disk, a fork bomb, killing every process, stopping the machine. The hardline table uses them,
 * and the approvals table reuses the same ones for its twin rows, so the two tiers cannot drift apart.
 */
import { parseOptions } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { isFilesystemRoot, isHomeDirectory, isRawBlockDevice, isSystemDirectory, normalizePath } from '../../shell/shellPaths.ts';

/** A relative path as seen from the directory an earlier `cd` of the line moved to (`cd / && rm -rf *`). */
export const resolveFromCwd = (command: SimpleCommand, path: string): string => {
  const cwd = command.cwd;
  if (cwd === undefined || /^[/~$]/.test(path)) return path;
  return cwd === '~' ? `~/${path}` : normalizePath(`${cwd}/${path}`);
};

/** The paths `rm` would delete. */
export const rmOperands = (command: SimpleCommand): readonly string[] =>
  parseOptions(command.args).operands.map((path) => resolveFromCwd(command, path));

/** `rm -r`, `-R`, `-rf`, `--recursive` (or any prefix GNU accepts, e.g. `--rec`), wherever the flag stands. */
export const isRecursiveRm = (command: SimpleCommand): boolean => {
  const options = parseOptions(command.args);
  return options.short.has('r') || options.short.has('R') || [...options.long.keys()].some((name) => name.length > 0 && 'recursive'.startsWith(name));
};

export const deletesFilesystemRoot = (command: SimpleCommand): boolean => rmOperands(command).some(isFilesystemRoot);

export const deletesSystemDirectory = (command: SimpleCommand): boolean =>
  rmOperands(command).some((path) => !isFilesystemRoot(path) && isSystemDirectory(path));

export const deletesHomeDirectory = (command: SimpleCommand): boolean => rmOperands(command).some(isHomeDirectory);

/** A word the shell fills in at run time, so its value is unknown here. */
export const isDynamic = (word: string): boolean => /[$`]/.test(word);

export const isFormatProgram = (program: string): boolean => /^(?:mkfs(?:\..+)?|mke2fs)$/.test(program);

/** mkfs/mke2fs on a disk (or on a device named at run time), mkswap/newfs on a disk, diskutil's erase verbs. */
export const formatsBlockDevice = (command: SimpleCommand): boolean => {
  const { program, args } = command;
  if (isFormatProgram(program)) return args.some((arg) => isRawBlockDevice(arg) || isDynamic(arg));
  if (program === 'mkswap' || /^newfs(?:_\w+)?$/.test(program)) return args.some(isRawBlockDevice);
  if (program === 'diskutil') return args.some((arg) => diskutilErase.has(arg.toLowerCase()));
  return false;
};
const diskutilErase = new Set(['erasedisk', 'erasevolume', 'zerodisk', 'randomdisk', 'secureerase', 'reformat', 'partitiondisk', 'deletecontainer', 'deletevolume']);

/** The value of dd's `of=` operand, if any. */
export const ddOutput = (command: SimpleCommand): string | undefined =>
  command.args.find((arg) => arg.startsWith('of='))?.slice(3);

export const ddWritesBlockDevice = (command: SimpleCommand): boolean => {
  const output = ddOutput(command);
  return output !== undefined && isRawBlockDevice(output);
};

/** Output redirection (`>`, `>>`, `&>`, `<>`, ...) to a raw disk. */
export const redirectsToBlockDevice = (command: SimpleCommand): boolean =>
  command.redirects.some((redirect) => redirect.op.includes('>') && isRawBlockDevice(redirect.target));

/** Writes a raw disk: redirection, `tee DISK`, or `cp`/`install` with a disk as destination. */
export const writesBlockDevice = (command: SimpleCommand): boolean => {
  if (redirectsToBlockDevice(command)) return true;
  if (command.program === 'tee') return parseOptions(command.args).operands.some(isRawBlockDevice);
  if (command.program === 'cp' || command.program === 'install') {
    const operands = parseOptions(command.args, { shortWithValue: 'tSgmo', longWithValue: ['target-directory', 'suffix', 'group', 'mode', 'owner'] }).operands;
    return operands.length >= 2 && isRawBlockDevice(operands[operands.length - 1]!);
  }
  return false;
};

/** Tools that erase a disk's partition table or sectors, when pointed at a disk with their destructive flag. */
export const wipesBlockDevice = (command: SimpleCommand): boolean => {
  const { program, args } = command;
  const onDisk = args.some(isRawBlockDevice);
  if (!onDisk) return false;
  const options = parseOptions(args);
  switch (program) {
    case 'wipefs':
      return (options.short.has('a') || options.long.has('all')) && !options.short.has('n') && !options.long.has('no-act');
    case 'sgdisk':
      return ['z', 'Z', 'o'].some((letter) => options.short.has(letter)) || ['zap', 'zap-all', 'clear'].some((name) => options.long.has(name));
    case 'blkdiscard':
    case 'shred':
      return true;
    case 'nvme':
      return args[0] === 'format' || args[0] === 'sanitize';
    case 'hdparm':
      return [...options.long.keys()].some((name) => name.startsWith('security-erase') || name === 'trim-sector-ranges');
    case 'parted':
      return args.includes('mklabel') || args.includes('mktable');
    case 'sfdisk':
      return options.long.has('delete');
    default:
      return false;
  }
};

/** A function that runs itself piped into itself or in the background: `:(){ :|:& };:` under any name. */
export const isForkBomb = (command: SimpleCommand): boolean =>
  command.via.includes(`function ${command.program}`) &&
  (command.pipedFrom.includes(command.program) || command.background === true);

/** `kill -1`, `kill -9 -1`, `kill -s KILL -1`, `kill -- -1`: pid -1 is every process the user may signal. */
export const killsAllProcesses = (command: SimpleCommand): boolean => {
  if (command.program === 'killall5') return true;
  if (command.program !== 'kill') return false;
  const args = command.args;
  if (args.length === 1) return args[0] === '-1';
  let i = 0;
  if (args[0] === '-s' || args[0] === '-n') i = 2;
  else if (args[0] === '-l' || args[0] === '-L' || args[0] === '--list' || args[0] === '--table') return false;
  else if (args[0] !== '--' && args[0]?.startsWith('-')) i = 1; // the signal, e.g. -9 or -KILL
  return args.slice(i).some((arg) => arg === '-1');
};

export const shutsDownMachine = (command: SimpleCommand): boolean =>
  !(command.program === 'shutdown' && (command.args.includes('-c') || command.args.includes('--help')));

/** `init 0`, `telinit 6`: the runlevels that halt or reboot. */
export const switchesToHaltRunlevel = (command: SimpleCommand): boolean => command.args[0] === '0' || command.args[0] === '6';

/** The verb of a systemctl call and its operands, past systemctl's own options. */
export const systemctlVerb = (command: SimpleCommand): { verb: string | undefined; operands: readonly string[] } => {
  const { operands } = parseOptions(command.args, {
    shortWithValue: 'HMtpPsno',
    longWithValue: ['host', 'machine', 'type', 'property', 'signal', 'lines', 'output', 'root', 'state', 'job-mode', 'kill-whom', 'kill-value', 'what', 'timestamp', 'image', 'reboot-argument', 'when', 'message', 'drop-in'],
  });
  return { verb: operands[0], operands: operands.slice(1) };
};

const powerVerbs = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot']);
const powerTargets = new Set(['poweroff.target', 'reboot.target', 'halt.target', 'kexec.target', 'soft-reboot.target']);

export const systemctlPowersOff = (command: SimpleCommand): boolean => {
  const { verb, operands } = systemctlVerb(command);
  if (verb === undefined) return false;
  return powerVerbs.has(verb) || ((verb === 'start' || verb === 'isolate') && operands.some((unit) => powerTargets.has(unit)));
};

/** An absolute path outside the scratch directories (/tmp, /var/tmp, /dev/shm). */
export const isOutsideScratch = (path: string): boolean =>
  path.startsWith('/') && !/^\/(?:tmp|var\/tmp|dev\/shm)(?:\/|$)/.test(normalizePath(path));
