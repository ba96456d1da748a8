/**
 * Programs that rewrite the files of the folders they are given, or of the folder they run in when given none
 * (red team 8): formatters and fixers in their writing mode (`prettier --write .`, `eslint --fix`, `black .`,
 * `ruff format`, `cargo fmt`, `gofmt -w`), package managers that rewrite the package folder (`pnpm install`,
 * `yarn`, `bun add`, `ncu -u`), code generators and hook runners (`go generate`, `pre-commit run`), reached
 * directly or through a runner (`npx`, `pnpm dlx`, `yarn X`, `python3 -m black`). Run in tollgate's clone or a
 * Hermes home they rewrite its code and settings: their folders are judged as folders written into whole
 * (`fills`), so a folder that holds or lies in a protected path blocks, and an ordinary project passes.
 * Also the git subcommands that rewrite the work tree beyond those shellOperands.ts knows (gitRewrittenFolders).
 */
import { firstOperandIndex, parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { Operands } from './shellOperands.ts';
import { recipeRunnerNames } from './recipeFiles.ts';

/** The folders (or files) a program rewrites, read from its arguments; null when it only reads in this mode. */
type Targets = (args: readonly string[], program: string) => readonly string[] | null;

export interface FolderRewriter {
  readonly name: string;
  readonly programs: ReadonlySet<string>;
  readonly targets: Targets;
  /** Lines the floor must stop (exampleFacts: the clone is /opt/tollgate), and ordinary ones it lets through. */
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

/** Whether any of the flags is given (`--config=x` counts as `--config`). */
const has = (args: readonly string[], flags: readonly string[]): boolean =>
  args.some((a) => flags.includes(a) || (a.startsWith('--') && a.includes('=') && flags.includes(a.slice(0, a.indexOf('=')))));
const operandsOf = (args: readonly string[], grammar?: OptionGrammar): string[] => [...parseOptions(args, grammar).operands];
/** The operands it is given, else the folder it runs in. */
const givenOrHere = (operands: readonly string[]): string[] => (operands.length > 0 ? [...operands] : ['.']);
const helpOrVersion = ['--help', '-h', '--version', '-V'];

/** Rewrites its operands (or `.`) when one of `flags` is given. */
const whenFlag = (flags: readonly string[], grammar?: OptionGrammar): Targets => (args) =>
  (has(args, flags) && !has(args, helpOrVersion) ? givenOrHere(operandsOf(args, grammar)) : null);
/** Rewrites its operands (or `.`) unless one of `readOnly` is given. */
const unlessFlag = (readOnly: readonly string[], grammar?: OptionGrammar): Targets => (args) =>
  (has(args, [...readOnly, ...helpOrVersion]) ? null : givenOrHere(operandsOf(args, grammar)));

const jsGrammar: OptionGrammar = { shortWithValue: 'cfo', longWithValue: ['config', 'ignore-path', 'plugin', 'parser', 'ext', 'rule', 'format', 'output-file', 'resolve-plugins-relative-to', 'rulesdir', 'cache-location', 'max-warnings', 'fix-type', 'log-level'] };
const pyGrammar: OptionGrammar = { shortWithValue: 'lt', longWithValue: ['config', 'line-length', 'target-version', 'select', 'ignore', 'extend-select', 'exclude', 'extend-exclude', 'settings-path', 'settings-file', 'profile', 'style', 'include', 'force-exclude', 'output-format', 'cache-dir'] };

/** ruff: `format` writes unless --check/--diff; `check --fix` (or the old `ruff --fix PATH`) applies fixes. */
const ruffTargets: Targets = (args) => {
  if (has(args, helpOrVersion)) return null;
  const [verb, ...rest] = operandsOf(args, pyGrammar);
  if (verb === 'format') return has(args, ['--check', '--diff']) ? null : givenOrHere(rest);
  if (!has(args, ['--fix', '--unsafe-fixes', '--fix-only']) || has(args, ['--diff', '--no-fix'])) return null;
  return verb === 'check' ? givenOrHere(rest) : givenOrHere(verb === undefined ? [] : [verb, ...rest]);
};

/** cargo and go: the subcommands that rewrite the crate's or module's sources, manifest or lock file. */
const cargoVerbs = new Set(['fmt', 'fix', 'update', 'add', 'remove', 'rm', 'generate-lockfile', 'vendor', 'upgrade', 'init']);
const goVerbs = new Set(['generate', 'fmt', 'fix', 'get']);
const nativeTargets: Targets = (args, program) => {
  if (has(args, helpOrVersion)) return null;
  const [verb, sub] = operandsOf(args, { shortWithValue: 'pC', longWithValue: ['manifest-path', 'package', 'target', 'features', 'color', 'config'] });
  if (program === 'cargo') return cargoVerbs.has(verb ?? '') && !(verb === 'fmt' && has(args, ['--check'])) ? ['.'] : verb === 'clippy' && has(args, ['--fix']) ? ['.'] : null;
  if (verb === 'mod') return ['tidy', 'vendor', 'init', 'edit'].includes(sub ?? '') ? ['.'] : null;
  if (verb === 'work') return ['init', 'use', 'edit', 'sync', 'vendor'].includes(sub ?? '') ? ['.'] : null;
  return goVerbs.has(verb ?? '') ? ['.'] : null;
};

/**
 * Package managers: the verbs that rewrite the package folder (its manifest, lock file, installed packages, and
 * the install scripts they run), the options that name another folder, and whether the bare command installs.
 */
interface PackageManager { readonly verbs: ReadonlySet<string>; readonly dirs: readonly string[]; readonly bare: boolean }
const jsVerbs = ['install', 'i', 'add', 'a', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'upgrade-interactive', 'dedupe', 'prune', 'link', 'ln',
  'unlink', 'import', 'patch', 'patch-commit', 'rebuild', 'rb', 'fetch', 'install-test', 'it', 'autoclean'];
const packageManagers: ReadonlyMap<string, PackageManager> = new Map<string, PackageManager>([
  ['pnpm', { verbs: new Set(jsVerbs), dirs: ['C', 'dir', 'prefix'], bare: false }],
  // `yarn set version X` puts a yarn release into .yarn/releases and .yarnrc.yml, which every later yarn runs.
  ['yarn', { verbs: new Set([...jsVerbs, 'set', 'version', 'plugin']), dirs: ['cwd'], bare: true }],
  ['bun', { verbs: new Set(jsVerbs), dirs: ['cwd'], bare: false }],
  ['composer', { verbs: new Set(['install', 'i', 'update', 'u', 'upgrade', 'require', 'r', 'remove', 'rm', 'dump-autoload', 'dumpautoload', 'reinstall', 'bump']), dirs: ['d', 'working-dir'], bare: false }],
  ['poetry', { verbs: new Set(['install', 'add', 'remove', 'update', 'lock', 'sync']), dirs: ['C', 'directory', 'P', 'project'], bare: false }],
  ['bundle', { verbs: new Set(['install', 'update', 'add', 'lock', 'remove', 'binstubs', 'cache', 'package']), dirs: [], bare: true }],
  ['pipenv', { verbs: new Set(['install', 'uninstall', 'update', 'upgrade', 'lock', 'sync', 'clean']), dirs: [], bare: false }],
]);
const managerGrammar: OptionGrammar = { shortWithValue: 'CdPw', longWithValue: ['dir', 'cwd', 'prefix', 'working-dir', 'directory', 'project', 'filter', 'workspace', 'registry', 'cache-folder', 'modules-folder', 'store-dir', 'reporter'] };
const managerTargets: Targets = (args, program) => {
  const manager = packageManagers.get(program)!;
  const options = parseOptions(args, managerGrammar);
  const verb = options.operands[0];
  if (has(args, ['-g', '--global', '--location', ...helpOrVersion]) || (verb === undefined ? !manager.bare : !manager.verbs.has(verb))) return null;
  const dir = manager.dirs.map((o) => (o.length === 1 ? options.short.get(o) : options.long.get(o))).find((v): v is string => typeof v === 'string');
  return [dir ?? '.'];
};

const blackTargets = unlessFlag(['--check', '--diff', '-c', '--code'], pyGrammar);
const isortTargets = unlessFlag(['--check-only', '--check', '-c', '--diff', '--show-files', '--show-config'], pyGrammar);
const rustfmtTargets = unlessFlag(['--check', '--print-config']);
/** pre-commit (bare: run), prek and lefthook: running or installing hooks runs what the folder's config names. */
const hookRunnerVerbs = new Set(['run', 'install', 'install-hooks', 'autoupdate', 'try-repo', 'uninstall', 'init-templatedir', 'add']);
const hookRunnerTargets: Targets = (args, program) => {
  const verb = operandsOf(args, { shortWithValue: 'c', longWithValue: ['config', 'hook-stage', 'from-ref', 'to-ref', 'files'] })[0];
  return (verb === undefined ? program !== 'lefthook' : hookRunnerVerbs.has(verb)) ? ['.'] : null;
};

/**
 * Other formatters, fixers and codemods, as data: the verb that writes (its operands, or `.`, follow it), the flag
 * that makes it write, or the flags that keep it reading. A tool with neither verb nor flag writes always.
 */
interface WriteMode { readonly verbs?: readonly string[]; readonly when?: readonly string[]; readonly unless?: readonly string[] }
const writeModes: ReadonlyMap<string, WriteMode> = new Map<string, WriteMode>([
  ['shfmt', { when: ['-w', '--write'] }], ['rubocop', { when: ['-a', '-A', '--autocorrect', '--autocorrect-all', '--auto-correct', '--auto-correct-all', '-x', '--fix-layout'] }],
  ['standardrb', { when: ['--fix'] }], ['terraform', { verbs: ['fmt'], unless: ['-check', '-diff'] }], ['tofu', { verbs: ['fmt'], unless: ['-check', '-diff'] }],
  ['php-cs-fixer', { verbs: ['fix'], unless: ['--dry-run'] }], ['phpcbf', {}], ['taplo', { verbs: ['fmt', 'format'], unless: ['--check'] }],
  ['yamlfmt', { unless: ['-lint', '-dry'] }], ['mdformat', { unless: ['--check'] }], ['sqlfluff', { verbs: ['fix', 'format'] }],
  ['codespell', { when: ['-w', '--write-changes'] }], ['typos', { when: ['-w', '--write-changes'] }], ['dart', { verbs: ['format', 'fix'], unless: ['--dry-run', '-n', '--output=none', '--set-exit-if-changed'] }],
  ['zig', { verbs: ['fmt'], unless: ['--check'] }], ['sd', {}], ['fastmod', {}], ['comby', { when: ['-i', '-in-place'] }], ['ast-grep', { when: ['-U', '--update-all'] }], ['sg', { when: ['-U', '--update-all'] }],
  ['semgrep', { when: ['--autofix'] }], ['jscodeshift', { unless: ['-d', '--dry'] }], ['stylua', { unless: ['--check'] }], ['ktlint', { when: ['-F', '--format'] }],
  ['swiftformat', { unless: ['--lint', '--dryrun'] }], ['clang-tidy', { when: ['-fix', '--fix', '-fix-errors', '--fix-errors'] }], ['buf', { verbs: ['format'], when: ['-w', '--write'] }],
  ['mix', { verbs: ['format', 'deps.get', 'deps.update'], unless: ['--check-formatted', '--dry-run'] }], ['nixfmt', { unless: ['--check', '-c'] }], ['cmake-format', { when: ['-i', '--in-place'] }],
  ['scalafmt', { unless: ['--check', '--test', '--list'] }], ['google-java-format', { when: ['-i', '--replace'] }], ['csharpier', { verbs: ['format', '.'], unless: ['--check'] }],
]);
const writeModeTargets: Targets = (args, program) => {
  const mode = writeModes.get(program);
  if (mode === undefined || has(args, helpOrVersion)) return null;
  let rest = operandsOf(args, { shortWithValue: 'prc', longWithValue: ['config', 'pattern', 'rewrite', 'lang', 'rule', 'transform', 'parser'] });
  if (mode.verbs !== undefined) {
    if (!mode.verbs.includes(rest[0] ?? '')) return null;
    rest = rest.slice(1);
  }
  if (mode.when !== undefined && !has(args, mode.when)) return null;
  // `sg scan -U`, `ast-grep run -U`: the subcommand is no path.
  if ((program === 'sg' || program === 'ast-grep') && ['run', 'scan'].includes(rest[0] ?? '')) rest = rest.slice(1);
  if (mode.unless !== undefined && has(args, mode.unless)) return null;
  // `sd FIND REPLACE FILES`, `fastmod FIND REPLACE [DIR]`, `comby MATCH REWRITE`: the first two operands are patterns.
  return givenOrHere(['sd', 'fastmod', 'comby'].includes(program) ? rest.slice(2) : rest);
};
/** deno: fmt and lint --fix rewrite sources, install/add/remove the lock file and node_modules. */
const denoTargets: Targets = (args) => {
  const [verb, ...rest] = operandsOf(args, { longWithValue: ['config', 'ext', 'ignore'] });
  if (verb === 'fmt') return has(args, ['--check']) ? null : givenOrHere(rest);
  if (verb === 'lint') return has(args, ['--fix']) ? givenOrHere(rest) : null;
  return ['install', 'i', 'add', 'remove', 'outdated'].includes(verb ?? '') && !has(args, ['-g', '--global']) && !(verb === 'outdated' && !has(args, ['--update', '-u'])) ? ['.'] : null;
};

export const folderRewriters: readonly FolderRewriter[] = [
  {
    name: 'JavaScript formatters and fixers in their writing mode (prettier --write, eslint --fix, stylelint --fix, xo --fix)',
    programs: new Set(['prettier', 'eslint', 'stylelint', 'standard', 'semistandard', 'xo', 'ts-standard', 'oxlint', 'tslint', 'markdownlint', 'markdownlint-cli2']),
    targets: whenFlag(['--write', '-w', '--fix', '--fix-type'], jsGrammar),
    stops: ['cd /opt/tollgate && prettier --write .', 'cd /opt/tollgate && eslint --fix', 'prettier -w /opt/tollgate', 'cd /opt/tollgate && eslint . --fix', 'cd /srv/hermes-bot && prettier --write .'],
    allows: ['cd /home/agent/web && prettier --write src/', 'cd /opt/tollgate && prettier --check .', 'cd /opt/tollgate && eslint .', 'prettier --write /home/agent/web'],
  },
  {
    name: 'biome and dprint formatting or fixing in place',
    programs: new Set(['biome', 'rome', 'dprint']),
    targets: (args) => {
      if (has(args, helpOrVersion)) return null;
      const [verb, ...rest] = operandsOf(args, { longWithValue: ['config-path', 'config', 'max-diagnostics', 'log-level'] });
      if (verb === 'fmt') return givenOrHere(rest);
      return ['format', 'lint', 'check', 'migrate'].includes(verb ?? '') && has(args, ['--write', '--apply', '--apply-unsafe', '--fix', '--unsafe']) ? givenOrHere(rest) : null;
    },
    stops: ['cd /opt/tollgate && biome format --write .', 'cd /opt/tollgate && biome check --apply', 'cd /opt/tollgate && dprint fmt'],
    allows: ['cd /opt/tollgate && biome check .', 'cd /home/agent/web && biome format --write .', 'cd /opt/tollgate && dprint check'],
  },
  {
    name: 'Python formatters (black, isort), ruff format and --fix',
    programs: new Set(['black', 'blue', 'isort', 'ruff']),
    targets: (args, program) => (program === 'ruff' ? ruffTargets(args, program) : program === 'isort' ? isortTargets(args, program) : blackTargets(args, program)),
    stops: ['cd /opt/tollgate && black .', 'cd /opt/tollgate && isort .', 'cd /opt/tollgate && ruff check --fix', 'cd /opt/tollgate && ruff format', 'cd /srv/hermes-bot && ruff --fix .'],
    allows: ['cd /opt/tollgate && black --check .', 'cd /opt/tollgate && isort --check-only .', 'cd /opt/tollgate && ruff check .', 'cd /opt/tollgate && ruff format --diff', 'cd /home/agent/web && ruff check --fix', 'cd /home/agent/web && black .'],
  },
  {
    name: 'Python fixers that write in place with -i (autopep8, yapf, autoflake, docformatter) or always (pyupgrade)',
    programs: new Set(['autopep8', 'yapf', 'autoflake', 'docformatter', 'pyupgrade', 'add-trailing-comma']),
    targets: (args, program) => (has(args, helpOrVersion) ? null : ['pyupgrade', 'add-trailing-comma'].includes(program) || has(args, ['--in-place']) || args.some((a) => /^-[a-z]*i[a-z]*$/.test(a)) ? givenOrHere(operandsOf(args, pyGrammar)) : null),
    stops: ['autopep8 -i -r /opt/tollgate', 'cd /opt/tollgate && yapf -ri .', 'cd /srv/hermes-bot && autoflake --in-place -r .'],
    allows: ['cd /opt/tollgate && autopep8 --diff -r .', 'cd /home/agent/web && yapf -i -r .'],
  },
  {
    name: 'Rust, Go and C formatters, fixers and generators (cargo fmt/fix/update, go generate/fmt/mod tidy, gofmt -w, clang-format -i)',
    programs: new Set(['cargo', 'go']),
    targets: nativeTargets,
    stops: ['cd /opt/tollgate && cargo fmt', 'cd /opt/tollgate && go generate ./...', 'cd /opt/tollgate && go mod tidy', 'cd /opt/tollgate && cargo clippy --fix'],
    allows: ['cd /opt/tollgate && cargo fmt --check', 'cd /home/agent/web && go generate ./...', 'cd /opt/tollgate && go vet ./...', 'cd /opt/tollgate && cargo clippy'],
  },
  {
    name: 'file formatters that write with -w or -i (gofmt, goimports, gofumpt, clang-format) or unless --check (rustfmt)',
    programs: new Set(['gofmt', 'goimports', 'gofumpt', 'clang-format', 'rustfmt']),
    targets: (args, program) => (program === 'rustfmt' ? rustfmtTargets(args, program) : args.includes('-w') || args.includes('-i') ? givenOrHere(operandsOf(args)) : null),
    stops: ['cd /opt/tollgate && gofmt -w .', 'clang-format -i /opt/tollgate/adapters/x.c'],
    allows: ['cd /opt/tollgate && gofmt -l .', 'clang-format -i src/x.c'],
  },
  {
    name: 'package managers that rewrite the package folder (pnpm, yarn, bun, composer, poetry, bundle, pipenv)',
    programs: new Set(packageManagers.keys()),
    targets: managerTargets,
    stops: ['cd /opt/tollgate && pnpm install', 'cd /opt/tollgate && yarn', 'cd /opt/tollgate && bun add left-pad', 'yarn --cwd /opt/tollgate add x', 'pnpm -C /opt/tollgate i',
      'cd /srv/hermes-bot && composer install', 'cd /opt/tollgate && yarn set version berry'],
    allows: ['cd /home/agent/web && pnpm install', 'cd /opt/tollgate && pnpm list', 'cd /opt/tollgate && yarn why left-pad', 'pnpm add -g left-pad', 'cd /opt/tollgate && yarn global add x'],
  },
  {
    name: 'dependency bumpers, patchers and hook runners (ncu -u, patch-package, pre-commit, lefthook)',
    programs: new Set(['ncu', 'npm-check-updates', 'patch-package', 'pre-commit', 'prek', 'lefthook']),
    targets: (args, program) => {
      if (has(args, helpOrVersion)) return null;
      if (program === 'ncu' || program === 'npm-check-updates') return has(args, ['-u', '--upgrade']) ? ['.'] : null;
      return program === 'patch-package' ? ['.'] : hookRunnerTargets(args, program);
    },
    stops: ['cd /opt/tollgate && ncu -u', 'cd /opt/tollgate && patch-package', 'cd /opt/tollgate && pre-commit run --all-files', 'cd /opt/tollgate && pre-commit'],
    allows: ['cd /opt/tollgate && ncu', 'cd /home/agent/web && ncu -u', 'cd /opt/tollgate && pre-commit --version', 'cd /opt/tollgate && pre-commit validate-config'],
  },
  {
    name: 'other formatters, fixers and codemods in their writing mode (shfmt -w, rubocop -A, terraform fmt, codespell -w, sd, ast-grep -U, deno fmt, …)',
    programs: new Set([...writeModes.keys(), 'deno']),
    targets: (args, program) => (program === 'deno' ? denoTargets(args, program) : writeModeTargets(args, program)),
    stops: ['cd /opt/tollgate && shfmt -w .', 'cd /opt/tollgate && rubocop -A', 'cd /srv/hermes-bot && terraform fmt', 'cd /opt/tollgate && codespell -w', 'cd /opt/tollgate && sd foo bar $(git ls-files)',
      'cd /opt/tollgate && deno fmt', 'cd /opt/tollgate && ast-grep -p a -r b -U', 'cd /opt/tollgate && fastmod foo bar'],
    allows: ['cd /opt/tollgate && shfmt -d .', 'cd /opt/tollgate && rubocop', 'cd /opt/tollgate && terraform fmt -check', 'cd /opt/tollgate && deno lint', 'cd /home/agent/web && deno fmt',
      'cd /home/agent/web && sd foo bar src/a.ts', 'cd /opt/tollgate && mix test'],
  },
];

const byProgram: ReadonlyMap<string, FolderRewriter> = new Map(folderRewriters.flatMap((row) => [...row.programs].map((p) => [p, row] as const)));

/** Python modules that are these tools (`python3 -m black .`). */
const toolModules: ReadonlyMap<string, string> = new Map([['black', 'black'], ['isort', 'isort'], ['ruff', 'ruff'], ['autopep8', 'autopep8'], ['yapf', 'yapf'],
  ['autoflake', 'autoflake'], ['pre_commit', 'pre-commit'], ['invoke', 'invoke'], ['nox', 'nox'], ['tox', 'tox'], ['poethepoet', 'poe'], ['pyupgrade', 'pyupgrade'], ['docformatter', 'docformatter'], ['pipenv', 'pipenv'], ['poetry', 'poetry']]);
const runnerGrammar: OptionGrammar = { shortWithValue: 'pcw', longWithValue: ['package', 'call', 'cache', 'registry', 'workspace', 'with', 'from', 'python', 'spec'] };
/** Runners whose first operand is the program they start, after their own options. */
const plainRunners = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'corepack']);
/** Runners that start a program after one verb (`pnpm dlx X`, `poetry run X`, `bundle exec X`). */
const verbRunners: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['npm', new Set(['exec', 'x'])], ['pnpm', new Set(['exec', 'dlx', 'x'])], ['yarn', new Set(['exec', 'dlx', 'run'])], ['bun', new Set(['x', 'run'])],
  ['uv', new Set(['run', 'tool'])], ['pipx', new Set(['run'])], ['poetry', new Set(['run'])], ['pdm', new Set(['run'])], ['hatch', new Set(['run'])],
  ['pipenv', new Set(['run'])], ['bundle', new Set(['exec'])], ['rye', new Set(['run'])],
]);

/** The program a runner starts and its arguments: `npx X`, `pnpm dlx X`, `yarn X` (a bin of the package), `python3 -m X`. */
const innerProgram = (program: string, args: readonly string[]): { program: string; args: readonly string[] } | null => {
  let at: number;
  if (plainRunners.has(program)) at = firstOperandIndex(args, 0, runnerGrammar);
  else if (/^python[0-9.]*$/.test(program)) {
    const m = args.findIndex((a) => a === '-m');
    const name = m < 0 ? undefined : toolModules.get(args[m + 1] ?? '');
    return name === undefined ? null : { program: name, args: args.slice(m + 2) };
  } else {
    const verbs = verbRunners.get(program);
    if (verbs === undefined) return null;
    const first = firstOperandIndex(args, 0, runnerGrammar);
    const verb = args[first];
    // `yarn prettier --write .`, `pnpm eslint --fix`: a package's own program named as the verb.
    if (verb !== undefined && (program === 'yarn' || program === 'pnpm') && (byProgram.has(verb) || recipeRunnerNames.has(verb)) && !packageManagers.get(program)!.verbs.has(verb)) at = first;
    else if (verb !== undefined && verbs.has(verb)) at = firstOperandIndex(args, first + 1, runnerGrammar);
    else return null;
    // `uv tool run X`
    if (program === 'uv' && verb === 'tool') at = args[at] === 'run' ? firstOperandIndex(args, at + 1, runnerGrammar) : args.length;
  }
  const inner = args[at];
  if (inner === undefined) return null;
  // `npx prettier@3 --write .`, `npx @biomejs/biome format --write`: the package's program.
  const name = inner.replace(/^@[^/]+\/(?=[^@])/, '').replace(/(?<=.)@[^/]*$/, '').replace(/^.*\//, '');
  return { program: name === 'cli' ? inner.replace(/^@([^/]+)\/.*$/, '$1') : name, args: args.slice(at + 1) };
};

/** Whether a program may be a runner of another (cheap, before reading its arguments). */
const mayRunAnother = (program: string): boolean => plainRunners.has(program) || verbRunners.has(program) || program.startsWith('python');

/**
 * The command a runner starts (`npx just build`, `uv run poe x`, `pnpm exec task`, `python3 -m invoke`), for the
 * readers of recipe files (scriptReaders.ts): it reads the same files as when run by its own name. Null otherwise.
 */
export const startedCommand = (command: SimpleCommand): SimpleCommand | null => {
  if (!mayRunAnother(command.program)) return null;
  const inner = innerProgram(command.program, command.args);
  return inner === null ? null : { ...command, program: inner.program, programPath: inner.program, args: inner.args };
};

/** The rewrites of one program or of what its runners start (a few levels: `corepack pnpm dlx prettier`). */
const targetsOf = (program: string, args: readonly string[], depth = 0): readonly string[] | null => {
  const inner = depth < 3 ? innerProgram(program, args) : null;
  if (inner !== null) return targetsOf(inner.program, inner.args, depth + 1);
  return byProgram.get(program)?.targets(args, program) ?? null;
};

/**
 * The folders a program of this table rewrites (directly or through a runner), as operands for the floor: every
 * word may be written, and the folders are written into whole. Null when it is none of them or only reads.
 */
export const folderRewrites = (command: SimpleCommand, words: readonly string[]): Operands | null => {
  if (!byProgram.has(command.program) && !mayRunAnother(command.program)) return null;
  const targets = targetsOf(command.program, command.args);
  if (targets === null) return null;
  return { writes: [...words, ...targets], reads: words, trees: [], code: [], readOnly: false, fills: targets };
};

// ---- git: subcommands that rewrite the work tree (or point it elsewhere) beyond shellOperands' list ----

const gitReplaceReads = new Set(['-l', '--list', '--format']);
/** `git config core.worktree DIR`: every later checkout of this repository lands in DIR (set, not read). */
const worktreeSetting = (rest: readonly string[]): string | null => {
  if (rest.some((a) => /^(?:--get|--get-all|--get-regexp|-l|--list|--unset|--unset-all|get|list|unset)(?:=|$)/.test(a))) return null;
  const words = rest.filter((a) => !a.startsWith('-') && a !== 'set');
  return /^core\.worktree$/i.test(words[0] ?? '') ? words[1] ?? '' : null;
};

/**
 * Folders a git subcommand writes into whole besides those shellOperands.ts knows: `submodule update` and `lfs
 * pull` check files out, `worktree add --force DIR` fills DIR, `replace`, `filter-repo` and `filter-branch`
 * rewrite what the work tree holds, `config core.worktree DIR` sends later checkouts to DIR.
 */
export const gitRewrittenFolders = (sub: string, rest: readonly string[], workTree: string): string[] => {
  const verb = rest.find((a) => !a.startsWith('-'));
  switch (sub) {
    case 'submodule': return ['update', 'add', 'deinit', 'absorbgitdirs'].includes(verb ?? '') ? [workTree] : [];
    case 'lfs': return ['pull', 'checkout', 'migrate', 'smudge'].includes(verb ?? '') ? [workTree] : [];
    case 'worktree': {
      if (!['add', 'move', 'remove'].includes(verb ?? '')) return [];
      const after = rest.slice(rest.indexOf(verb!) + 1);
      const paths = operandsOf(after, { shortWithValue: 'bB', longWithValue: ['reason'] });
      return verb === 'add' ? paths.slice(0, 1) : paths;
    }
    case 'replace': return rest.some((a) => gitReplaceReads.has(a)) ? [] : [workTree];
    case 'filter-repo': case 'filter-branch': return rest.some((a) => a === '--analyze' || a === '--help') ? [] : [workTree];
    case 'config': {
      const dir = worktreeSetting(rest);
      return dir === null ? [] : dir === '' ? [workTree] : [workTree, dir];
    }
    default: return [];
  }
};

// ---- names a writer gets from a listing: `sed -i … $(git ls-files)`, `git ls-files | xargs sed -i …` ----

/** Programs that change the files they are named (a program the floor does not know is not taken to write a listing). */
const fileWriters: ReadonlySet<string> = new Set(['sed', 'gsed', 'perl', 'ruby', 'rm', 'unlink', 'shred', 'truncate', 'chmod', 'chown', 'chgrp', 'mv', 'cp', 'tee', 'touch',
  'ln', 'install', 'rsync', 'dd', 'patch', 'ed', 'ex', 'vim', 'vi', 'nvim', 'sponge', 'dos2unix', 'unix2dos', 'iconv', 'recode', 'rename', 'prename', 'yq', 'jq']);
/** A word that is one command's output as a whole (`$(git ls-files)`, `` `find .` ``): names the line does not show. */
const wholeSubstitution = /^(?:\$\([\s\S]*\)|`[\s\S]*`)$/;

/**
 * A writing command whose names come from a listing (a substitution, or xargs fed by another command) may write
 * any file of the folder it runs in: that folder is judged as written into whole, so a listing run in
 * tollgate's clone or a Hermes home blocks and one in an ordinary project passes.
 */
export const withListedNames = (command: SimpleCommand, operands: Operands): Operands => {
  if (operands.readOnly || !(fileWriters.has(command.program) || byProgram.has(command.program))) return operands;
  const listed = operands.writes.some((w) => wholeSubstitution.test(w)) || (command.via.some((v) => v.startsWith('xargs')) && command.stdin === undefined);
  return listed ? { ...operands, fills: [...(operands.fills ?? []), '.'] } : operands;
};
