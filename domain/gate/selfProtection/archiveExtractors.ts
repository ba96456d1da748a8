/**
 * Archive tools beyond tar, unzip and cpio (red team 10 and 12): the folder each extracts into, so an archive
 * unpacked into a Hermes home, the clone or the data folder is judged as that folder written whole (`fills`).
 * Each row reads its own grammar; a tool in extract mode with no destination given unpacks into the working folder.
 */
import { optionValuesAnywhere, parseOptions } from '../../shell/commandOptions.ts';

export interface ExtractorRow {
  readonly programs: readonly string[];
  /** The destination folder when the words extract ('.' for the working folder), or null when they do not. */
  readonly destination: (args: readonly string[]) => string | null;
  readonly why: string;
}

/** The first value an option is given (commandOptions.ts' reading), or null. */
const valueOf = (args: readonly string[], short: string | null, longs: readonly string[]): string | null => optionValuesAnywhere(args, short, longs)[0] ?? null;

const operands = (args: readonly string[]): string[] => args.filter((a) => !a.startsWith('-'));

export const extractorRows: readonly ExtractorRow[] = [
  {
    programs: ['7z', '7za', '7zr', '7zz'],
    // `7z x A -oDIR`, `7z e A`: the command letter first; -o takes its folder attached.
    destination: (args) => (/^[xe]$/.test(operands(args)[0] ?? '') ? args.find((a) => a.startsWith('-o'))?.slice(2) || '.' : null),
    why: '7-Zip x and e extract, into -oDIR or the working folder',
  },
  {
    programs: ['dpkg', 'dpkg-deb'],
    destination: (args) => {
      const at = args.findIndex((a) => /^(?:-x|-X|-R|--extract|--vextract|--raw-extract)$/.test(a));
      return at < 0 ? null : args[at + 2] ?? '.';
    },
    why: 'dpkg -x DEB DIR unpacks the package into DIR',
  },
  {
    programs: ['ar'],
    destination: (args) => (/^-?[a-zA-Z]*x/.test(args[0] ?? '') ? valueOf(args, null, ['output']) ?? '.' : null),
    why: 'ar x extracts the members, into --output or the working folder',
  },
  {
    programs: ['unrar', 'rar'],
    destination: (args) => {
      const words = operands(args);
      if (!/^[xe]$/.test(words[0] ?? '')) return null;
      const last = words[words.length - 1] ?? '';
      return words.length > 2 && last.endsWith('/') ? last : valueOf(args, 'op', []) ?? '.';
    },
    why: 'unrar x and e extract, into the path ending in / or the working folder',
  },
  { programs: ['cabextract'], destination: (args) => valueOf(args, 'd', ['directory']) ?? '.', why: 'cabextract unpacks into -d or the working folder' },
  {
    programs: ['lha', 'lharc'],
    destination: (args) => {
      const mode = args[0] ?? '';
      if (!/^-?[xe]/.test(mode)) return null;
      return /w=(.+)$/.exec(mode)?.[1] ?? '.';
    },
    why: 'lha x extracts, into w=DIR or the working folder',
  },
  { programs: ['unar'], destination: (args) => valueOf(args, 'o', ['output-directory']) ?? '.', why: 'unar unpacks into -o or the working folder' },
  { programs: ['aunpack'], destination: (args) => valueOf(args, 'X', ['extract-to']) ?? '.', why: 'aunpack unpacks into -X or the working folder' },
  {
    programs: ['atool'],
    destination: (args) => (args.some((a) => a === '-x' || a === '--extract' || /^-[a-zA-Z]*x/.test(a)) ? valueOf(args, 'X', ['extract-to']) ?? '.' : null),
    why: 'atool -x unpacks into -X or the working folder',
  },
  {
    programs: ['unsquashfs', 'sqfs2tar', 'rdsquashfs'],
    destination: (args) => valueOf(args, 'd', ['dest']) ?? valueOf(args, null, ['dest']) ?? '.',
    why: 'unsquashfs writes the image into -d (squashfs-root in the working folder by default)',
  },
  {
    programs: ['xorriso', 'osirrox'],
    destination: (args) => {
      const at = args.findIndex((a) => /^-+(?:extract|extract_r|extract_single|cpx|cpax|cp_rx|extract_l)$/.test(a));
      if (at < 0) return null;
      const rest = args.slice(at + 1).filter((a) => !a.startsWith('-'));
      return rest[rest.length - 1] ?? '.';
    },
    why: 'xorriso -extract copies from the image into the last path',
  },
  {
    programs: ['jar'],
    destination: (args) => (/^-?[a-zA-Z]*x/.test(args[0] ?? '') || args.includes('--extract') ? valueOf(args, 'C', ['dir']) ?? '.' : null),
    why: 'jar x extracts into the working folder (or --dir)',
  },
  {
    programs: ['bsdcpio'],
    destination: (args) => {
      const options = parseOptions(args, { shortWithValue: 'DEFHIMOR', longWithValue: ['directory', 'file', 'format'] });
      if (!options.short.has('i') && !options.long.has('extract') && !options.short.has('p')) return null;
      const into = options.short.get('D') ?? options.long.get('directory');
      return typeof into === 'string' ? into : options.short.has('p') ? options.operands[0] ?? '.' : '.';
    },
    why: 'bsdcpio -i extracts into the working folder',
  },
  {
    programs: ['ditto'],
    destination: (args) => { const words = operands(args); return words.length >= 2 ? words[words.length - 1]! : null; },
    why: 'ditto SRC DST copies a tree into DST',
  },
  {
    programs: ['rclone'],
    destination: (args) => { const words = operands(args); return ['copy', 'sync', 'move', 'copyto', 'moveto', 'bisync', 'mount', 'nfsmount'].includes(words[0] ?? '') ? words[words.length - 1] ?? null : null; },
    why: 'rclone copy, sync and mount write into the last path',
  },
  { programs: ['arj'], destination: (args) => (/^[xe]$/.test(args[0] ?? '') ? operands(args)[2] ?? '.' : null), why: 'arj x ARCHIVE DIR extracts into DIR' },
  { programs: ['zpaq'], destination: (args) => (args[0] === 'x' ? valueOf(args, null, ['to']) ?? '.' : null), why: 'zpaq x ARCHIVE -to DIR extracts into DIR' },
  { programs: ['archivemount', 'fuse-zip', 'ratarmount', 'mount.zip'], destination: (args) => operands(args)[operands(args).length - 1] ?? null, why: 'an archive mounted over the last path' },
  {
    programs: ['rpm2archive', 'rpmdev-extract', 'unp', 'dtrx', 'extract', 'patool'],
    destination: (args) => (args[0] === 'list' || args.includes('-l') || args.includes('--list') ? null : valueOf(args, 'C', ['outdir', 'directory']) ?? '.'),
    why: 'general unpackers write into the working folder (or the folder given)',
  },
];

const rowsByProgram: ReadonlyMap<string, ExtractorRow> = new Map(extractorRows.flatMap((row) => row.programs.map((p) => [p, row] as const)));

/** The folder the command extracts into, or null when it is no extraction these rows know. */
export const extractionFolder = (program: string, args: readonly string[]): string | null => rowsByProgram.get(program)?.destination(args) ?? null;

export const extractorExamples: readonly { readonly line: string; readonly into: string | null }[] = [
  { line: '7z x /tmp/a.7z -o/root/.hermes', into: '/root/.hermes' }, { line: '7z x /tmp/a.7z', into: '.' }, { line: '7z l /tmp/a.7z', into: null },
  { line: '7z a out.7z src', into: null }, { line: 'dpkg -x /tmp/a.deb ~/.hermes', into: '~/.hermes' }, { line: 'dpkg -i x.deb', into: null },
  { line: 'ar x /tmp/a.a --output=/root/.hermes', into: '/root/.hermes' }, { line: 'ar rcs lib.a a.o', into: null }, { line: 'unrar x /tmp/a.rar /root/.hermes/', into: '/root/.hermes/' },
  { line: 'unrar l a.rar', into: null }, { line: 'cabextract -d ~/.hermes /tmp/a.cab', into: '~/.hermes' }, { line: 'lha x /tmp/a.lzh', into: '.' }, { line: 'unar /tmp/a.zip', into: '.' },
  { line: 'atool -x /tmp/a.tgz', into: '.' }, { line: 'atool -l /tmp/a.tgz', into: null }, { line: 'unsquashfs -f -d . /tmp/a.sq', into: '.' },
  { line: 'xorriso -osirrox on -indev /tmp/a.iso -extract / .', into: '.' }, { line: 'jar xf /tmp/a.jar', into: '.' }, { line: 'jar cf x.jar .', into: null },
  { line: 'bsdcpio -id', into: '.' }, { line: 'bsdcpio -o', into: null }, { line: 'aunpack -X /root/.hermes a.tgz', into: '/root/.hermes' },
  { line: 'patool extract a.rar --outdir /root/.hermes', into: '/root/.hermes' }, { line: 'patool list a.rar', into: null },
  { line: 'ditto /tmp/e /root/.hermes', into: '/root/.hermes' }, { line: 'rclone copy r:/x /root/.hermes', into: '/root/.hermes' }, { line: 'rclone ls r:', into: null },
  { line: 'arj x /tmp/a.arj /root/.hermes', into: '/root/.hermes' }, { line: 'zpaq x /tmp/a.zpaq -to /root/.hermes', into: '/root/.hermes' }, { line: 'archivemount /tmp/a.tar /root/.hermes', into: '/root/.hermes' },
];
