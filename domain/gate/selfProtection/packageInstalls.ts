/**
 * Package managers pointed at the guard's or Hermes' own code: a pip inside a protected virtualenv (Hermes' own
 * packages, or any it imports, replaced: a `hermes_agent.plugins` entry point named `tollgate` takes the plugin's
 * place), pipx changing Hermes' environment, and package scripts set from the command line
 * (`npm pkg set scripts.postinstall=…`), judged as the scripts they become.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** Subcommands that change what an environment holds. */
const changingVerbs: ReadonlySet<string> = new Set(['install', 'uninstall', 'download', 'sync', 'add', 'remove', 'inject', 'upgrade', 'reinstall', 'runpip', 'uninject', 'upgrade-all', 'reinstall-all']);

const pipProgram = /^(?:pip[0-9.]*|easy_install[0-9.]*)$/;
const pythonProgram = /^python[0-9.]*$/;

/** The program path whose folder decides where a pip install lands, when the command changes an environment. */
export const installingInto = (command: SimpleCommand): string | null => {
  const { program, args, programPath } = command;
  if (pipProgram.test(program)) return changingVerbs.has(verbFrom(args, 0) ?? '') ? programPath : null;
  if (pythonProgram.test(program)) {
    const m = args.indexOf('-m');
    return m >= 0 && /^pip[0-9.]*$/.test(args[m + 1] ?? '') && changingVerbs.has(verbFrom(args, m + 2) ?? '') ? programPath : null;
  }
  return null;
};

/** The first word from `from` on that is not an option. Top level: it runs for every command of every line. */
const verbFrom = (args: readonly string[], from: number): string | undefined => {
  for (let i = from; i < args.length; i++) if (!args[i]!.startsWith('-')) return args[i];
  return undefined;
};

/** `pipx inject hermes-agent x`, `pipx upgrade hermes-agent`: Hermes' own environment changed. */
export const changesHermesEnvironment = (command: SimpleCommand): string | null => {
  if (command.program !== 'pipx') return null;
  const operands = command.args.filter((a) => !a.startsWith('-'));
  const verb = operands[0] ?? '';
  if (!changingVerbs.has(verb)) return null;
  if (/-all$/.test(verb)) return `pipx ${verb}, Hermes' environment among them`;
  return operands.slice(1).some((o) => /^hermes(?:-agent)?(?:[=<>[].*)?$/.test(o)) ? `pipx ${verb} of Hermes' own environment` : null;
};

/** The script text `npm pkg set scripts.NAME=TEXT` or `npm set-script NAME TEXT` stores. */
export const packageScriptsSet = (command: SimpleCommand): string[] => {
  if (!['npm', 'pnpm', 'yarn', 'bun'].includes(command.program)) return [];
  const { args } = command;
  if (args[0] === 'set-script' && args[2] !== undefined) return [args[2]];
  if (args[0] !== 'pkg' || args[1] !== 'set') return [];
  return args.slice(2).flatMap((a) => { const m = /^scripts\.[^=]+=([\s\S]*)$/.exec(a); return m === null ? [] : [m[1]!]; });
};

export const packageInstallExamples = {
  stops: ['/opt/tollgate/bin/pip install evil', '/opt/tollgate/bin/python3 -m pip install -U openai', 'pipx inject hermes-agent /tmp/evil', 'pipx upgrade-all', "npm pkg set scripts.postinstall='tollgate approve a1 always'",
    "npm set-script prepare 'pkill -f tollgate'", "npm pkg set scripts.start='sh /tmp/x'"],
  allows: ['pip install requests', 'python3 -m pip install --user black', 'pipx install ruff', "npm pkg set scripts.test='mocha'", 'pip list', 'npm pkg get scripts'],
};
