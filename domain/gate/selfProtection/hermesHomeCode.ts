/**
 * What a Hermes home holds that Hermes runs as code or reads as trusted configuration, besides config.yaml, .env,
 * auth.json, plugins/ and the shell-hook allowlist (protectedPaths.ts' hermesProtectedNames). A change to one is
 * refused like a change to the plugins folder: yolo lifts the question a change elsewhere in the home asks, and
 * these would run later inside Hermes, outside any tool call the guard sees. memories/ and skills/ are text the
 * model reads, not code: a change there still only asks.
 */

export interface HermesHomeRow {
  /** The first segment below the home (or a profile's home). */
  readonly name: string;
  readonly why: string;
  /** Folders right below it that hold only what Hermes wrote out (job output): a change there still only asks. */
  readonly outputs?: readonly string[];
  /** Paths (with the example home /home/agent/.hermes) a write to which must block, and ones that must only ask. */
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

export const hermesHomeCodeRows: readonly HermesHomeRow[] = [
  {
    name: 'hooks',
    why: 'gateway/hooks.py loads every hooks/<name>/HOOK.yaml and imports its handler.py into the gateway process on each event.',
    stops: ['/home/agent/.hermes/hooks/evil/handler.py', '/home/agent/.hermes/hooks/evil/HOOK.yaml', '/home/agent/.hermes/profiles/work/hooks/x/handler.py'],
    allows: ['/home/agent/.hermes/logs/hooks.log'],
  },
  {
    name: 'cron',
    why: "cron/jobs.py keeps the scheduled jobs in cron/jobs.json; the scheduler runs each job's prompt and script later on its own.",
    outputs: ['output'],
    stops: ['/home/agent/.hermes/cron/jobs.json', '/srv/hermes-bot/cron/jobs.json', '/home/agent/.hermes/cron/.tick.lock'],
    allows: ['/home/agent/.hermes/notes/cron.md', '/home/agent/.hermes/cron/output/job1/2026-01-01.md'],
  },
  {
    name: 'scripts',
    why: "The cronjob tool's scripts live here; cron/scheduler.py runs them with bash or Python every tick.",
    stops: ['/home/agent/.hermes/scripts/tidy.sh'],
    allows: ['/home/agent/project/scripts/build.sh'],
  },
  {
    name: 'hermes-agent',
    why: "The installer's checkout of Hermes itself (and its venv): the code that loads tollgate's plugin.",
    stops: ['/home/agent/.hermes/hermes-agent/run_agent.py', '/home/agent/.hermes/hermes-agent/hermes_cli/plugins.py', '/home/agent/.hermes/hermes-agent/venv/bin/python'],
    allows: ['/home/agent/src/hermes-agent/run_agent.py'],
  },
  {
    name: 'bin',
    why: "tools/tirith_security.py installs the tirith command scanner at bin/tirith and runs it on every terminal command: a replaced binary decides what Hermes thinks is safe.",
    stops: ['/home/agent/.hermes/bin/tirith', '/srv/hermes-bot/bin/tirith'],
    allows: ['/home/agent/project/bin/run.sh'],
  },
  {
    name: 'pairing',
    why: 'gateway/pairing.py stores the approved senders here: an entry lets a stranger command the agent.',
    stops: ['/home/agent/.hermes/pairing/telegram-approved.json'],
    allows: ['/home/agent/.hermes/memories/MEMORY.md', '/home/agent/.hermes/skills/notes/SKILL.md'],
  },
  {
    name: 'platforms',
    why: "Newer Hermes keeps the approved senders in platforms/pairing/ (gateway/pairing.py) and each platform's login and keys beside them (platforms/whatsapp/session, platforms/matrix/store): an entry lets a stranger command the agent, a swapped session puts another account behind it.",
    stops: ['/home/agent/.hermes/platforms/pairing/telegram-approved.json', '/srv/hermes-bot/platforms/pairing/discord-approved.json', '/home/agent/.hermes/platforms/whatsapp/session/creds.json'],
    allows: ['/home/agent/project/platforms/pairing/notes.md'],
  },
];

/** The names, looked up once per path below a home. */
export const hermesHomeCodeNames: ReadonlySet<string> = new Set(hermesHomeCodeRows.map((r) => r.name));

const outputsByName: ReadonlyMap<string, readonly string[]> = new Map(hermesHomeCodeRows.filter((r) => r.outputs !== undefined).map((r) => [r.name, r.outputs!]));

/** Whether the segments below a home name what Hermes runs (`cron/jobs.json`), not its output (`cron/output/…`). */
export const runsFromHome = (rest: readonly string[]): boolean => {
  const first = rest[0];
  if (first === undefined || !hermesHomeCodeNames.has(first)) return false;
  const outputs = outputsByName.get(first);
  return outputs === undefined || rest.length < 3 || !outputs.includes(rest[1]!);
};
