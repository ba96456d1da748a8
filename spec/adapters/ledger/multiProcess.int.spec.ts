/**
 * Two processes on one ledger file: BEGIN IMMEDIATE and reading the head and revisions inside the write
 * transaction keep the chain single and revisions exact; a third process's live subscription sees their appends
 * by polling data_version.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { LedgerMessage } from '../../../adapters/ledger/port.ts';
import { openSqliteLedger } from '../../../adapters/ledger/sqlite/sqliteLedger.ts';
import { useTempDir } from '../../support/tempDir.ts';

const run = promisify(execFile);
const appender = fileURLToPath(new URL('./fixtures/concurrentAppender.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('sqlite ledger shared by two processes', function () {
  this.timeout(60_000);
  const temp = useTempDir('multi');

  it('keeps one gap-free chain, exact revisions under optimistic retries, and feeds a live subscriber in a third process', async () => {
    const file = temp.current.file('data', 'ledger.db');
    const watcher = await openSqliteLedger(file, { pollIntervalMs: 50 });
    const messages: LedgerMessage[] = [];
    const subscription = watcher.subscribe().subscribe((message) => messages.push(message));
    try {
      const children = ['a', 'b'].map((label) =>
        run(process.execPath, ['--import', 'tsx', appender, file, label, '200', '50'], { cwd: projectRoot }),
      );
      const outputs = await Promise.all(children);
      expect(outputs.map((o) => (JSON.parse(o.stdout) as { done: string }).done)).to.deep.equal(['a', 'b']);

      const total = 2 * (200 + 50);
      const all = await watcher.readAll();
      expect(all.map((e) => e.position)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
      for (const stream of ['shared-0', 'shared-1', 'shared-2', 'counter']) {
        const revisions = (await watcher.readStream(stream)).map((e) => e.revision);
        expect(revisions, stream).to.deep.equal(Array.from({ length: revisions.length }, (_, i) => i));
      }
      expect(await watcher.readStream('counter')).to.have.length(100);
      expect(await watcher.verify()).to.include({ ok: true, checked: total });

      const deadline = Date.now() + 5000;
      while (messages.filter((m) => m.kind === 'event').length < total && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const positions = messages.flatMap((m) => (m.kind === 'event' ? [m.event.position] : []));
      expect(positions).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
      expect(messages[0]).to.deep.equal({ kind: 'caught-up', position: 0 });
    } finally {
      subscription.unsubscribe();
      await watcher.close();
    }
  });
});
