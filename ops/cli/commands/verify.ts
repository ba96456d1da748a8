/** `tollgate verify`: walks the hash chain and checks the signed checkpoint; names the first bad position. */
import { Command } from 'commander';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import { configFrom } from '../globalOptions.ts';

export const verifyCommand = (): Command => new Command('verify')
  .description('Prove the ledger is intact: every hash link, and the signed checkpoint (detects a cut-off tail).')
  .option('--ledger <url>', 'ledger URL (default: ledger.url from the configuration)')
  .option('--json', 'print the report as JSON')
  .action(async (options: { ledger?: string; json?: boolean }, command: Command) => {
    const url = options.ledger ?? configFrom(command).ledger.url;
    const ledger = await openLedger(url);
    try {
      const report = await ledger.verify();
      if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else if (report.ok) process.stdout.write(`ok: ${report.checked} events checked, head at position ${report.head}${report.checkpoint ? `, signed checkpoint at ${report.checkpoint.position} matches` : ''}\n`);
      else process.stdout.write(`FAILED at position ${report.firstBadPosition ?? '?'}: ${report.problem ?? 'unknown problem'} (${report.checked} events checked)\n`);
      process.exitCode = report.ok ? 0 : 1;
    } finally {
      await ledger.close();
    }
  });
