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
    stops: ['/home/agent/.hermes/cron/jobs.json', '/srv/hermes-bot/cron/jobs.json'],
    allows: ['/home/agent/.hermes/notes/cron.md'],
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
    name: 'pairing',
    why: 'gateway/pairing.py stores the approved senders here: an entry lets a stranger command the agent.',
    stops: ['/home/agent/.hermes/pairing/telegram-approved.json'],
    allows: ['/home/agent/.hermes/memories/MEMORY.md', '/home/agent/.hermes/skills/notes/SKILL.md'],
  },
];

/** The names, looked up once per path below a home. */
export const hermesHomeCodeNames: ReadonlySet<string> = new Set(hermesHomeCodeRows.map((r) => r.name));
