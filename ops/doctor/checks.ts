/** What `tollgate doctor` reports: one line per check, each with what to do about it. */

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  /** Stable name for scripts (`--json`), e.g. `plugin.enabled`. */
  readonly id: string;
  readonly status: CheckStatus;
  /** What was checked, in a few words. */
  readonly title: string;
  /** What was found. */
  readonly detail: string;
  /** What to do (warn and fail). */
  readonly fix?: string;
}

export const ok = (id: string, title: string, detail: string): Check => ({ id, status: 'ok', title, detail });
export const warn = (id: string, title: string, detail: string, fix?: string): Check => ({ id, status: 'warn', title, detail, ...(fix ? { fix } : {}) });
export const fail = (id: string, title: string, detail: string, fix?: string): Check => ({ id, status: 'fail', title, detail, ...(fix ? { fix } : {}) });

export interface DoctorReport {
  readonly ok: boolean;
  readonly hermesHome: string;
  readonly socket: string;
  readonly checks: readonly Check[];
}

const label: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

export const formatReport = (report: DoctorReport): string => {
  const lines = [`tollgate doctor — HERMES_HOME ${report.hermesHome}, daemon socket ${report.socket}`, ''];
  for (const check of report.checks) {
    lines.push(`${label[check.status]}  ${check.title}: ${check.detail}`);
    if (check.fix && check.status !== 'ok') lines.push(`      fix: ${check.fix}`);
  }
  const count = (s: CheckStatus) => report.checks.filter((c) => c.status === s).length;
  lines.push('', `${count('fail')} FAIL, ${count('warn')} warn, ${count('ok')} ok — ${report.ok ? 'the guard is active' : 'the guard is NOT known to be active'}`);
  return `${lines.join('\n')}\n`;
};
