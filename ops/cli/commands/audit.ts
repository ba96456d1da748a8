/** `tollgate audit [-n N] [--json]`: the most recent decisions in the ledger. */
import { Command } from 'commander';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import type { RecordedEvent } from '../../../adapters/ledger/port.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';

const auditedTypes = ['ToolCallDecided', 'OutputChecked', 'ApprovalRequested', 'ApprovalAnswered', 'ApprovalExpired', 'GrantIssued', 'RequestRejected'];

export const auditCommand = (): Command => new Command('audit')
  .description('Show the most recent decisions, questions, answers and rejected requests.')
  .option('-n, --number <n>', 'how many', '20')
  .option('--session <id>', 'only this session')
  .option('--ledger <url>', 'ledger URL (default: ledger.url from the configuration)')
  .option('--json', 'one JSON object per line')
  .action(async (options: { number: string; session?: string; ledger?: string; json?: boolean }, command: Command) => {
    const count = Number(options.number);
    if (!Number.isInteger(count) || count <= 0) throw new UsageError(`-n takes a positive whole number, not "${options.number}"`);
    const ledger = await openLedger(options.ledger ?? configFrom(command).ledger.url);
    try {
      const prefixes = options.session ? [`session-${options.session}`] : undefined;
      const events = await ledger.readAll({ filter: { types: auditedTypes, ...(prefixes ? { streamPrefixes: prefixes } : {}) } });
      const matching = options.session ? events.filter((e) => e.stream === `session-${options.session}`) : events;
      for (const record of matching.slice(-count)) process.stdout.write(`${options.json ? JSON.stringify(auditRow(record)) : auditLine(record)}\n`);
    } finally {
      await ledger.close();
    }
  });

const auditRow = (record: RecordedEvent) => ({ position: record.position, stream: record.stream, recordedAt: record.recordedAt, type: record.type, data: decodeEvent(record).data });

export const auditLine = (record: RecordedEvent): string => {
  const event = decodeEvent(record);
  const head = `#${record.position} ${record.recordedAt} ${record.stream}`;
  switch (event.type) {
    case 'ToolCallDecided': {
      const d = event.data;
      const what = d.shell ? d.shell.source : JSON.stringify(d.args);
      return `${head} ${d.verdict.toUpperCase()} ${d.tool} ${truncate(what)} — ${d.layer}${d.reasons.length ? ` [${d.reasons.join(', ')}]` : ''}${d.approvalId ? ` approval ${d.approvalId}` : ''}`;
    }
    case 'OutputChecked': return `${head} ${event.data.verdict.toUpperCase()} ${event.data.channel} (${event.data.length} chars) — ${event.data.layer}`;
    case 'ApprovalRequested': return `${head} ASKED ${event.data.approvalId}: ${truncate(event.data.summary)} (expires ${event.data.expiresAt})`;
    case 'ApprovalAnswered': return `${head} ANSWERED ${event.data.approvalId}: ${event.data.answer}${event.data.answeredBy ? ` by ${event.data.answeredBy}` : ''}`;
    case 'ApprovalExpired': return `${head} EXPIRED ${event.data.approvalId} (counts as deny)`;
    case 'GrantIssued': return `${head} GRANT ${event.data.scope} for ${truncate(event.data.summary)}`;
    case 'RequestRejected': return `${head} REJECTED ${event.data.endpoint}: ${truncate(event.data.problem)}`;
    default: return `${head} ${event.type}`;
  }
};

const truncate = (text: string, max = 100): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
