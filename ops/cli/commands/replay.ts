/** `tollgate replay SESSION`: re-derives every decision of a session from its recorded commands. */
import { Command } from 'commander';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import type { Ledger } from '../../../adapters/ledger/port.ts';
import { visibleJson, visibleText } from '../../../domain/encoding/visibleText.mjs';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { replaySession, type ReplayReport } from '../../../domain/session/replaySession.ts';
import { sessionStream } from '../../gate/sessionStore.ts';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';

export const replayCommand = (): Command => new Command('replay')
  .description('Re-derive every decision of a session (or all sessions) from its recorded commands and report any difference.')
  .argument('[session]', 'session id')
  .option('--all', 'replay every session in the ledger')
  .option('--ledger <url>', 'ledger URL (default: ledger.url from the configuration)')
  .option('--json', 'print the reports as JSON')
  .action(async (session: string | undefined, options: { all?: boolean; ledger?: string; json?: boolean }, command: Command) => {
    if (!session && !options.all) throw new UsageError('name a session id, or use --all');
    const ledger = await openLedger(options.ledger ?? configFrom(command).ledger.url);
    try {
      const sessions = options.all ? await allSessions(ledger) : [session!];
      let differing = 0;
      for (const id of sessions) {
        const report = await replayStored(ledger, id);
        if (report.events === 0 && !options.all) throw new UsageError(`no session "${id}" in the ledger`, 1);
        differing += report.differences.length;
        print(id, report, options.json === true);
      }
      process.exitCode = differing === 0 ? 0 : 1;
    } finally {
      await ledger.close();
    }
  });

export const replayStored = async (ledger: Ledger, sessionId: string): Promise<ReplayReport> => {
  const recorded = await ledger.readStream(sessionStream(sessionId));
  return replaySession(recorded.map((r) => ({ position: r.position, event: decodeEvent(r), metadata: r.metadata })));
};

const allSessions = async (ledger: Ledger): Promise<string[]> => {
  const ids = new Set<string>();
  for (const e of await ledger.readAll({ filter: { streamPrefixes: ['session-'], types: ['SessionStarted'] } })) ids.add(e.stream.slice('session-'.length));
  return [...ids];
};

const print = (sessionId: string, report: ReplayReport, json: boolean): void => {
  // Session ids and recorded data come from the agent: shown visible.
  if (json) { process.stdout.write(`${visibleJson({ session: sessionId, ...report })}\n`); return; }
  if (report.differences.length === 0) {
    process.stdout.write(`${visibleText(sessionId)}: ${report.commands} commands, ${report.events} events — every decision re-derived exactly\n`);
    return;
  }
  process.stdout.write(`${visibleText(sessionId)}: ${report.differences.length} difference(s)\n`);
  for (const d of report.differences) process.stdout.write(`${visibleText(`  position ${d.position} (${d.commandType}): ${d.problem}`)}\n`);
};
