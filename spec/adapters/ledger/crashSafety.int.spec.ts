/**
 * Crash safety: a child process appends under load and is killed with SIGKILL mid-stream. After a reopen every
 * acknowledged append is there, no half batch or undecodable row is visible, and the chain verifies. (SIGKILL
 * keeps the OS page cache; power loss is covered by synchronous=FULL as far as SQLite promises.)
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteLedger } from '../../../adapters/ledger/sqlite/sqliteLedger.ts';
import { useTempDir } from '../../support/tempDir.ts';

interface Ack {
  readonly batch: string;
  readonly stream: string;
  readonly size: number;
  readonly position: number;
  readonly revision: number;
}

const appender = fileURLToPath(new URL('./fixtures/crashAppender.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the appender until it has been under load for `loadMs`, then SIGKILLs it; returns every ack it printed. */
const appendThenKill = (file: string, loadMs: number): Promise<Ack[]> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', appender, file], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const acks: Ack[] = [];
    let stderr = '';
    let killer: NodeJS.Timeout | undefined;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const message = JSON.parse(line) as Ack | { ready: true };
      if ('ready' in message) killer = setTimeout(() => child.kill('SIGKILL'), loadMs);
      else acks.push(message);
    });
    child.on('error', reject);
    // Resolve only when stdout is drained too: a line in the pipe before the kill is an ack.
    lines.on('close', () => {
      clearTimeout(killer);
      if (child.signalCode !== 'SIGKILL' && child.exitCode !== null)
        reject(new Error(`appender exited with ${child.exitCode} before the kill: ${stderr}`));
      else resolve(acks);
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`appender exited with ${code ?? signal}: ${stderr}`));
    });
  });

describe('sqlite ledger crash safety (SIGKILL under load)', function () {
  this.timeout(60_000);
  const temp = useTempDir('crash');

  it('keeps every acknowledged append, shows no partial batch or undecodable row, and verifies, over repeated kills', async () => {
    const file = temp.current.file('data', 'ledger.db');
    const acked: Ack[] = [];
    for (let round = 1; round <= 3; round += 1) {
      const acks = await appendThenKill(file, 1000);
      expect(acks.length, `round ${round}: the appender acknowledged appends before the kill`).to.be.greaterThan(50);
      acked.push(...acks);

      // Every stored row decodes, read straight from the file.
      const db = new Database(file, { readonly: true });
      try {
        for (const row of db.prepare('SELECT data, metadata, hash FROM events').iterate() as Iterable<Record<string, string>>) {
          expect(JSON.parse(row.data!)).to.be.an('object');
          expect(JSON.parse(row.metadata!)).to.have.keys('batch', 'size', 'index');
          expect(row.hash).to.match(/^[0-9a-f]{64}$/);
        }
      } finally {
        db.close();
      }

      const ledger = await openSqliteLedger(file);
      try {
        const events = await ledger.readAll();
        const batches = new Map<string, { positions: number[]; size: number; indexes: number[] }>();
        for (const event of events) {
          const { batch, size, index } = event.metadata as { batch: string; size: number; index: number };
          const entry = batches.get(batch) ?? { positions: [], size, indexes: [] };
          entry.positions.push(event.position);
          entry.indexes.push(index);
          batches.set(batch, entry);
        }
        for (const [batch, { positions, size, indexes }] of batches) {
          expect(indexes, `batch ${batch} is whole`).to.deep.equal(Array.from({ length: size }, (_, i) => i));
          expect(positions.at(-1)! - positions[0]!, `batch ${batch} is contiguous`).to.equal(size - 1);
        }
        const byPosition = new Map(events.map((event) => [event.position, event]));
        for (const ack of acked) {
          const last = byPosition.get(ack.position);
          expect(last, `acknowledged position ${ack.position} is stored`).to.not.equal(undefined);
          expect(last!.metadata).to.deep.include({ batch: ack.batch, index: ack.size - 1 });
          expect(last!.revision).to.equal(ack.revision);
        }
        const report = await ledger.verify();
        expect(report, JSON.stringify(report)).to.include({ ok: true, checked: events.length });
      } finally {
        await ledger.close();
      }
    }
  });
});
