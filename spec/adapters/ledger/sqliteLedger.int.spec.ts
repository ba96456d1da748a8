import { expect } from 'chai';
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { openSqliteLedger } from '../../../adapters/ledger/sqlite/sqliteLedger.ts';
import type { SqliteLedgerOptions } from '../../../adapters/ledger/sqlite/sqliteLedger.ts';
import type { Ledger } from '../../../adapters/ledger/port.ts';
import { createTempDir, useTempDir } from '../../support/tempDir.ts';
import type { TempDir } from '../../support/tempDir.ts';
import { ledgerContract } from './ledgerContract.ts';
import { sqliteTamperer } from './sqliteTamperer.ts';

const quiet = () => undefined;
const options: SqliteLedgerOptions = { pageSize: 32, onCheckpointProblem: quiet };

describe('sqlite ledger', () => {
  const folders: TempDir[] = [];
  after(async () => {
    await Promise.all(folders.map((folder) => folder.remove()));
  });

  ledgerContract('sqlite', async () => {
    const folder = await createTempDir('ledger');
    folders.push(folder);
    const file = folder.file('data', 'ledger.db');
    const open = () => openSqliteLedger(file, options);
    return { ledger: await open(), reopen: open, tamper: sqliteTamperer(file, `${file}.checkpoint.json`) };
  });

  // The same contract with verify split across three worker threads from the first event (chainSegments.ts):
  // every break lands in some range or where two meet, and must read as the one-thread walk reads it.
  ledgerContract('sqlite, verify in parallel ranges', async () => {
    const folder = await createTempDir('ledger');
    folders.push(folder);
    const file = folder.file('data', 'ledger.db');
    const open = () => openSqliteLedger(file, { ...options, parallelVerify: { minEvents: 0, workers: 3 } });
    return { ledger: await open(), reopen: open, tamper: sqliteTamperer(file, `${file}.checkpoint.json`) };
  });

  describe('on a real file', () => {
    const temp = useTempDir('ledger');
    const opened: Ledger[] = [];
    const open = async (extra: SqliteLedgerOptions = {}) => {
      const ledger = await openSqliteLedger(temp.current.file('data', 'ledger.db'), { ...options, ...extra });
      opened.push(ledger);
      return ledger;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((ledger) => ledger.close()));
    });

    it('lands 500 concurrent appends across 10 streams in grouped commits with correct revisions', async () => {
      const ledger = await open();
      const results = await Promise.all(
        Array.from({ length: 500 }, (_, i) => ledger.append(`session-${i % 10}`, [{ type: 'Step', data: { i } }])),
      );
      expect(results.map((r) => r.position).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 500 }, (_, i) => i + 1));
      for (let s = 0; s < 10; s += 1) {
        const stream = await ledger.readStream(`session-${s}`);
        expect(stream.map((e) => e.revision)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
        // Appends to one stream keep the order they were made in.
        expect(stream.map((e) => (e.data as { i: number }).i)).to.deep.equal(Array.from({ length: 50 }, (_, i) => s + 10 * i));
      }
      expect(await ledger.verify()).to.include({ ok: true, checked: 500 });
    });

    it('persists events, revisions and the chain across close and reopen', async () => {
      const first = await open();
      await first.append('session-a', [{ type: 'A', data: { n: 1 } }, { type: 'B', data: [1, 'two'] }]);
      const before = await first.readAll();
      await first.close();
      const second = await open();
      expect(await second.readAll()).to.deep.equal(before);
      expect(await second.append('session-a', [{ type: 'C', data: null }], { expected: 1 })).to.deep.equal({ nextExpectedRevision: 2, position: 3 });
      expect(await second.verify()).to.include({ ok: true, checked: 3 });
    });

    it('uses WAL, synchronous=FULL and one file with the schema the brief names', async () => {
      const ledger = await open();
      await ledger.append('session-a', [{ type: 'A', data: {} }]);
      await ledger.close();
      const db = new Database(temp.current.file('data', 'ledger.db'), { readonly: true });
      try {
        expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
        const columns = (db.pragma('table_info(events)') as { name: string }[]).map((c) => c.name);
        expect(columns).to.deep.equal(['position', 'stream', 'revision', 'type', 'version', 'data', 'metadata', 'recorded_at', 'prev_hash', 'hash', 'id']);
      } finally {
        db.close();
      }
    });

    it('refuses UPDATE and DELETE on its own file through triggers', async () => {
      const ledger = await open();
      await ledger.append('session-a', [{ type: 'A', data: {} }]);
      await ledger.close();
      const db = new Database(temp.current.file('data', 'ledger.db'));
      try {
        expect(() => db.prepare("UPDATE events SET data = '{}' WHERE position = 1").run()).to.throw(/append-only/);
        expect(() => db.prepare('DELETE FROM events').run()).to.throw(/append-only/);
      } finally {
        db.close();
      }
    });

    it('writes the signed checkpoint beside the ledger and the key, mode 0600, in keys/ outside it', async () => {
      const ledger = await open({ checkpointIntervalMs: 10 });
      const { position } = await ledger.append('session-a', [{ type: 'A', data: {} }]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const report = await ledger.verify();
      expect(report.checkpoint).to.include({ position, signatureValid: true });
      expect(statSync(temp.current.file('data', 'keys', 'checkpoint.ed25519')).mode & 0o777).to.equal(0o600);
      expect(statSync(temp.current.file('data', 'ledger.db.checkpoint.json')).isFile()).to.equal(true);
    });

    it('rejects appends after close and lets close run twice', async () => {
      const ledger = await open();
      await ledger.close();
      await ledger.close();
      let error: unknown;
      await ledger.append('session-a', [{ type: 'A', data: {} }]).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(Error).with.property('message').match(/closed/);
    });

    it('writes appends queued before close', async () => {
      const ledger = await open();
      const pending = Promise.all([1, 2, 3].map((i) => ledger.append('session-a', [{ type: 'A', data: { i } }])));
      await ledger.close();
      expect((await pending).map((r) => r.position)).to.deep.equal([1, 2, 3]);
    });
  });
});
