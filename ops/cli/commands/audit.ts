/**
 * `tollgate audit [-n N] [--json]`: the most recent decisions in the ledger. Both forms are safe in a terminal: text
 * lines are rendered visible, and JSON carries direction and invisible characters as \uXXXX (the values unchanged).
 */
import { Command } from 'commander';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import type { RecordedEvent } from '../../../adapters/ledger/port.ts';
import { visibleJson } from '../../../domain/encoding/visibleText.mjs';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { describeEvent } from '../describeEvent.ts';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';

const auditedTypes = ['ToolCallDecided', 'OutputChecked', 'ApprovalRequested', 'ApprovalAnswered', 'ApprovalExpired', 'GrantIssued', 'RequestRejected', 'CheckpointRejected', 'RegistrationDropped'];

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
      for (const record of matching.slice(-count)) process.stdout.write(`${options.json ? visibleJson(auditRow(record)) : auditLine(record)}\n`);
    } finally {
      await ledger.close();
    }
  });

const auditRow = (record: RecordedEvent) => ({ position: record.position, stream: record.stream, recordedAt: record.recordedAt, type: record.type, data: decodeEvent(record).data });

export const auditLine = (record: RecordedEvent): string =>
  describeEvent({ position: record.position, stream: record.stream, recordedAt: record.recordedAt, event: decodeEvent(record) });
