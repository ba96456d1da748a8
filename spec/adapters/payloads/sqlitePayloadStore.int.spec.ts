import { expect } from 'chai';
import { chmod, readFile, stat } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { openSqlitePayloadStore } from '../../../adapters/payloads/sqlitePayloadStore.ts';
import { KeyFilePermissionError } from '../../../adapters/ledger/secretFile.ts';
import { createTempDir, useTempDir } from '../../support/tempDir.ts';
import type { TempDir } from '../../support/tempDir.ts';
import { payloadStoreContract } from './payloadStoreContract.ts';

describe('sqlite payload store', () => {
  const folders: TempDir[] = [];
  after(async () => {
    await Promise.all(folders.map((folder) => folder.remove()));
  });

  payloadStoreContract('sqlite', async () => {
    const folder = await createTempDir('payloads');
    folders.push(folder);
    const file = folder.file('data', 'payloads.db');
    return {
      store: await openSqlitePayloadStore(file),
      key: () => readFile(folder.file('data', 'keys', 'payload-hmac.key')),
      reopen: () => openSqlitePayloadStore(file),
    };
  });

  describe('on a real file', () => {
    const temp = useTempDir('payloads');

    it('creates keys/payload-hmac.key with 32 random bytes and mode 0600', async () => {
      const store = await openSqlitePayloadStore(temp.current.file('data', 'payloads.db'));
      await store.close();
      const keyFile = temp.current.file('data', 'keys', 'payload-hmac.key');
      expect((await stat(keyFile)).mode & 0o777).to.equal(0o600);
      expect(await readFile(keyFile)).to.have.length(32);
    });

    it('refuses a key file group or others can read', async () => {
      const file = temp.current.file('data', 'payloads.db');
      await (await openSqlitePayloadStore(file)).close();
      await chmod(temp.current.file('data', 'keys', 'payload-hmac.key'), 0o644);
      let error: unknown;
      await openSqlitePayloadStore(file).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(KeyFilePermissionError);
    });

    it('leaves no purged text in the database file or its WAL', async () => {
      const file = temp.current.file('data', 'payloads.db');
      const store = await openSqlitePayloadStore(file);
      const secret = 'my-very-personal-sentence-' + 'z'.repeat(64);
      await store.put(secret, '2026-01-01T00:00:00.000Z');
      await store.put('kept text', '2026-02-01T00:00:00.000Z');
      const onDisk = async () => Buffer.concat([await readFile(file), await readFile(`${file}-wal`).catch(() => Buffer.alloc(0))]);
      expect((await onDisk()).includes(secret), 'the text is on disk before the purge').to.equal(true);
      expect(await store.purgeOlderThan('2026-01-15T00:00:00.000Z')).to.have.length(1);
      await store.close();
      expect((await onDisk()).includes(secret)).to.equal(false);
      const db = new Database(file, { readonly: true });
      expect(db.prepare('SELECT count(*) FROM payloads').pluck().get()).to.equal(1);
      db.close();
    });

    it('is a separate file from the ledger', async () => {
      const store = await openSqlitePayloadStore(temp.current.file('data', 'payloads.db'));
      await store.close();
      const db = new Database(temp.current.file('data', 'payloads.db'), { readonly: true });
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      db.close();
      expect(tables).to.deep.equal(['payloads']);
    });
  });
});
