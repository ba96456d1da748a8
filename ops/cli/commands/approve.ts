/** `tollgate approvals` lists open questions; `tollgate approve ID [answer]` answers one. Both talk to the daemon. */
import { Command } from 'commander';
import { requestOverSocket } from '../../../adapters/http/socketClient.ts';
import { visibleJsonText, visibleText } from '../../../domain/encoding/visibleText.mjs';
import type { PendingApprovalView } from '../../../projections/pendingApprovals.ts';
import { UsageError } from '../usageError.ts';
import { humanSocketOf, socketOf, unreachable } from './daemonTarget.ts';

const answers = ['once', 'session', 'always', 'deny'] as const;

export const approveCommand = (): Command => new Command('approve')
  .description('Answer an open question: once (this call), session (this action for the session), always (every session), or deny.')
  .argument('<approval-id>', 'the id from `tollgate approvals`, `tollgate tail` or the runtime\'s prompt')
  .argument('[answer]', answers.join(' | '), 'once')
  .option('--by <name>', 'who answers (sent for older daemons; the ledger records the channel: human-socket or out-of-band)')
  .option('--socket <path>', 'daemon socket (default: server.human_socket when set, else server.socket)')
  .action(async (id: string, answer: string, options: { by?: string; socket?: string }, command: Command) => {
    if (!(answers as readonly string[]).includes(answer)) throw new UsageError(`the answer is one of ${answers.join(', ')}, not "${answer}"`);
    const socket = humanSocketOf(command, options.socket);
    const reply = await requestOverSocket(socket, 'POST', `/v1/approvals/${encodeURIComponent(id)}`, { answer, answered_by: options.by ?? process.env['USER'] ?? undefined })
      .catch((error: unknown) => { throw unreachable(socket, error); });
    if (reply.status === 404) throw new UsageError(`no open question ${visibleText(id)} (already answered, expired, or never asked)`, 1);
    if (reply.status === 403) throw new UsageError(refusedAdvice(socket, reply.json), 1);
    if (reply.status !== 200) throw new UsageError(`the daemon refused: ${visibleText(reply.text)}`, 1);
    const result = reply.json as { outcome: string; sessionId: string | null };
    process.stdout.write(`${visibleText(`${id}: ${result.outcome}${result.sessionId ? ` (session ${result.sessionId})` : ''}`)}\n`);
    process.exitCode = result.outcome === 'allowed' || (answer === 'deny' && result.outcome === 'denied') ? 0 : 1;
  });

/** Why the daemon would not take this answer, and what would make it. */
const refusedAdvice = (socket: string, json: unknown): string => {
  const reason = (json as { refused?: string } | null)?.refused ?? 'channel-refused';
  return reason === 'channel:out-of-band-refused'
    ? `refused (${reason}): ${socket} is the runtime socket, and answers from outside the runtime's own prompt are refused there. `
      + 'Answer in the runtime\'s prompt, or configure the human channel (server.human_socket), or accept out-of-band answers (approvals.out_of_band: true; `tollgate doctor` warns about it).'
    : `refused (${visibleText(reason)}): this channel may not answer that question`;
};

export const approvalsCommand = (): Command => new Command('approvals')
  .description('List the questions waiting for a human.')
  .option('--json', 'print the list as JSON')
  .option('--socket <path>', 'daemon socket (default: server.socket)')
  .action(async (options: { json?: boolean; socket?: string }, command: Command) => {
    const socket = socketOf(command, options.socket);
    const reply = await requestOverSocket(socket, 'GET', '/v1/approvals').catch((error: unknown) => { throw unreachable(socket, error); });
    if (reply.status !== 200) throw new UsageError(`the daemon refused: ${visibleText(reply.text)}`, 1);
    // The person deciding reads these: commands come from the agent, so every line is rendered visible.
    if (options.json) { process.stdout.write(`${visibleJsonText(reply.text)}\n`); return; }
    const list = (reply.json as { approvals: PendingApprovalView[] }).approvals;
    if (list.length === 0) { process.stdout.write('no open questions\n'); return; }
    for (const p of list) process.stdout.write(`${visibleText(`${p.approvalId}  session ${p.sessionId}  ${p.summary}  [${p.reasons.join(', ')}]  expires ${p.expiresAt}`)}\n`);
  });

export const revokeCommand = (): Command => new Command('revoke')
  .description('Take an "always" answer back: its action leaves the allowlist, so other sessions ask again. The human channel\'s to do.')
  .argument('<grant-id>', 'the grantId of the GrantIssued event (`tollgate audit --json`, GET /v1/projections/grants)')
  .option('--socket <path>', 'daemon socket (default: server.human_socket when set, else server.socket)')
  .action(async (grantId: string, options: { socket?: string }, command: Command) => {
    const socket = humanSocketOf(command, options.socket);
    const reply = await requestOverSocket(socket, 'POST', '/v1/allowlist/revoke', { grant_id: grantId })
      .catch((error: unknown) => { throw unreachable(socket, error); });
    if (reply.status === 404) throw new UsageError(`no allowlist entry comes from grant ${visibleText(grantId)}`, 1);
    if (reply.status === 403) throw new UsageError(refusedAdvice(socket, reply.json), 1);
    if (reply.status !== 200) throw new UsageError(`the daemon refused: ${visibleText(reply.text)}`, 1);
    process.stdout.write(`${visibleText(grantId)}: revoked\n`);
  });
