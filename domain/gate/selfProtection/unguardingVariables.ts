/**
 * Environment variables that take the guard away from the next Hermes, Claude Code or hook client started with them: Hermes'
 * own switches (plugins off, yolo, hooks accepted, another home) and the variables tollgate's plugin and hook client
 * read to find the daemon (a nested `hermes` pointed at a socket the agent serves registers with that instead).
 */
export const unguardingVariableNames: readonly string[] = [
  'HERMES_SAFE_MODE', 'HERMES_YOLO_MODE', 'HERMES_ACCEPT_HOOKS', 'HERMES_HOME', 'HERMES_IGNORE_USER_CONFIG',
  // Loads plugins from the project folder (`.hermes/plugins` where Hermes starts): code the agent writes, in Hermes.
  'HERMES_ENABLE_PROJECT_PLUGINS',
  'TOLLGATE_SOCKET', 'TOLLGATE_HOME', 'TOLLGATE_CONFIG',
  // Claude Code reads its settings (and so its hooks) from there instead of ~/.claude.
  'CLAUDE_CONFIG_DIR',
  // The TUI resumes that session (the user's).
  'HERMES_TUI_RESUME',
];

/** Hermes' `*_COMMAND` / `*_CMD` variables (HERMES_LOCAL_STT_COMMAND, HERMES_CUA_DRIVER_CMD …) are commands it runs itself, unseen. */
const hermesCommandVariable = 'HERMES_[A-Z0-9_]*(?:COMMAND|CMD)';
const namesPattern = [...unguardingVariableNames, hermesCommandVariable].join('|');

const exactNames: ReadonlySet<string> = new Set(unguardingVariableNames);
/** Whether a variable's name is one of them (the *_COMMAND pattern included). */
export const isUnguardingVariable = (name: string): boolean => exactNames.has(name) || /^HERMES_[A-Z0-9_]*(?:COMMAND|CMD)$/.test(name);
export const unguardingVariableSet: { has: (name: string) => boolean } = { has: isUnguardingVariable };

/** `NAME=` or `NAME+=` for any of them, as a pattern fragment (no anchors). */
export const unguardingAssignment = `(${namesPattern})\\+?=`;

/** Cheap precondition before any of the patterns run. */
export const mentionsUnguardingVariable = (text: string): boolean => text.includes('HERMES_') || text.includes('TOLLGATE_') || text.includes('CLAUDE_');

/**
 * The same variables set from code: `os.environ['HERMES_HOME'] = …`, `env={'TOLLGATE_SOCKET': …}`, `putenv("X", …)`,
 * `process.env.TOLLGATE_SOCKET = …`, `$ENV{HERMES_HOME} = …`, `os.environ.update(TOLLGATE_SOCKET=…)` (a read such as
 * `os.environ['X']` alone is not).
 */
export const unguardingCodeAssignment = new RegExp(
  `['"](${namesPattern})['"]\\s*\\]?\\s*[=:,](?!=)|\\benv\\.(${namesPattern})\\s*=(?!=)|ENV\\{['"]?(${namesPattern})['"]?\\}\\s*=(?!=)|\\b(?:update|dict|setdefault)\\s*\\([^)]*\\b(${namesPattern})\\s*=(?!=)`,
);
