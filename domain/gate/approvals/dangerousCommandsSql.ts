/**
 * Approval rules for destructive SQL given to a database client: on its command line (`psql -c`, `mysql -e`,
 * `sqlite3 db '...'`, also through `docker exec db psql ...`) or on its standard input (`echo '...' | psql`,
 * a heredoc). The SQL itself is text, so these rules read it with patterns.
 */
import { programName } from '../../shell/programName.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { DangerousRule } from '../floors/commandRule.ts';

const sqlClients = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlite', 'duckdb', 'sqlcmd', 'clickhouse-client', 'clickhouse', 'cockroach', 'pgcli', 'mycli', 'litecli', 'usql']);

/** The SQL a database client is given, when the command runs one (directly or as an argument of docker/kubectl). */
const sqlText = (command: SimpleCommand): string | undefined => {
  const isClient = sqlClients.has(command.program) || command.args.some((arg) => sqlClients.has(programName(arg)));
  if (!isClient) return undefined;
  return [...command.args, command.stdin ?? ''].join('\n');
};

const statements = (sql: string): string[] => sql.split(';');

const sqlRule = (test: (sql: string) => boolean) => (command: SimpleCommand): boolean => {
  const sql = sqlText(command);
  return sql !== undefined && test(sql);
};

export const sqlRules: readonly DangerousRule[] = [
  {
    id: 'sql-drop',
    reason: 'Drops a table, schema or database.',
    matches: sqlRule((sql) => /\bdrop\s+(?:table|database|schema)\b/i.test(sql)),
    asks: [
      "psql -c 'DROP TABLE users'", 'mysql -e "drop database prod"', "echo 'DROP TABLE x;' | psql mydb",
      "sqlite3 app.db 'DROP TABLE logs'", "docker exec db psql -U app -c 'DROP SCHEMA public CASCADE'", 'psql <<SQL\nDROP TABLE users;\nSQL',
    ],
    allows: ["psql -c 'SELECT * FROM users'", "echo 'DROP TABLE users' > notes.txt", 'psql -f migrate.sql'],
  },
  {
    id: 'sql-delete-without-where',
    reason: 'Deletes every row of a table (DELETE FROM without WHERE).',
    matches: sqlRule((sql) => statements(sql).some((statement) => /\bdelete\s+from\b/i.test(statement) && !/\bwhere\b/i.test(statement))),
    asks: ["psql -c 'DELETE FROM users'", "mysql -e 'delete from sessions;'", "psql -c 'DELETE FROM a WHERE id=1; DELETE FROM b'"],
    allows: ["psql -c 'DELETE FROM users WHERE id = 1'", "psql -c 'SELECT 1'"],
  },
  {
    id: 'sql-truncate',
    reason: 'Empties a table (TRUNCATE).',
    matches: sqlRule((sql) => /\btruncate\s+(?:table\s+)?["`[\w]/i.test(sql)),
    asks: ["psql -c 'TRUNCATE TABLE users'", "mysql -e 'truncate logs'"],
    allows: ['truncate -s 0 app.log', "psql -c 'SELECT 1'"],
  },
];
