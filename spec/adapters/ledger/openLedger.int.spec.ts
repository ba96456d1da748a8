import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import { LedgerInputError } from '../../../adapters/ledger/port.ts';
import { useTempDir } from '../../support/tempDir.ts';

const rejectionOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('openLedger(url)', () => {
  const temp = useTempDir('open-ledger');

  it('memory: opens an empty memory ledger', async () => {
    const ledger = await openLedger('memory:');
    expect(ledger.url).to.equal('memory:');
    expect(await ledger.headPosition()).to.equal(0);
    await ledger.close();
  });

  it('sqlite:./data/ledger.db opens a file relative to the working folder and creates its folders', async () => {
    const ledger = await openLedger('sqlite:./data/ledger.db', { cwd: temp.current.path });
    await ledger.append('session-a', [{ type: 'A', data: {} }]);
    await ledger.close();
    expect(ledger.url).to.equal(`sqlite:${temp.current.file('data', 'ledger.db')}`);
    expect(existsSync(temp.current.file('data', 'ledger.db'))).to.equal(true);
    expect(existsSync(temp.current.file('data', 'keys', 'checkpoint.ed25519'))).to.equal(true);
  });

  it('sqlite:///absolute/path opens an absolute path', async () => {
    const ledger = await openLedger(`sqlite://${temp.current.file('abs.db')}`);
    expect(ledger.url).to.equal(`sqlite:${temp.current.file('abs.db')}`);
    await ledger.close();
  });

  for (const url of ['postgres://localhost/tollgate', 'postgresql://u@h/db', 'kurrentdb://localhost:2113'])
    it(`${url.split(':')[0]}: says the adapter is not available yet`, async () => {
      const error = await rejectionOf(openLedger(url));
      expect(error).to.be.instanceOf(LedgerInputError).with.property('message').match(/not available yet/);
    });

  for (const url of ['mysql://x', 'ledger.db', '', 'sqlite:', 'sqlite://host/file.db', 'memory:extra'])
    it(`refuses ${JSON.stringify(url)} with a clear error`, async () => {
      const error = await rejectionOf(openLedger(url));
      expect(error).to.be.instanceOf(LedgerInputError).with.property('message').match(/ledger URL/i);
    });
});
