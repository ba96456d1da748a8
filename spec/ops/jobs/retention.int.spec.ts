import { expect } from 'chai';
import { openMemoryLedger } from '../../../adapters/ledger/memory/memoryLedger.ts';
import { openMemoryPayloadStore } from '../../../adapters/payloads/memoryPayloadStore.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { defaultConfig } from '../../../ops/config/loadConfig.ts';
import { purgeRawText, retentionStream, startRetention } from '../../../ops/jobs/retention.ts';

describe('raw text retention', () => {
  it('deletes only payloads older than the retention period and records what it deleted', async () => {
    const ledger = openMemoryLedger();
    const payloads = openMemoryPayloadStore();
    const old = await payloads.put('old words', '2026-01-01T00:00:00.000Z');
    const recent = await payloads.put('recent words', '2026-01-25T00:00:00.000Z');
    const purged = await purgeRawText(payloads, ledger, new Date('2026-02-01T00:00:00.000Z'), 30);
    expect(purged).to.deep.equal([old.ref]);
    expect(await payloads.get(old.ref)).to.equal(undefined);
    expect(await payloads.get(recent.ref)).to.equal('recent words');
    const [recorded] = (await ledger.readStream(retentionStream)).map((r) => decodeEvent(r));
    expect(recorded).to.deep.include({ type: 'RawTextPurged' });
    expect(recorded?.data).to.deep.include({ refs: [old.ref], olderThan: '2026-01-02T00:00:00.000Z' });
  });

  it('is idempotent: a second run deletes nothing and records nothing', async () => {
    const ledger = openMemoryLedger();
    const payloads = openMemoryPayloadStore();
    await payloads.put('old words', '2026-01-01T00:00:00.000Z');
    const now = new Date('2026-03-01T00:00:00.000Z');
    await purgeRawText(payloads, ledger, now, 30);
    expect(await purgeRawText(payloads, ledger, now, 30)).to.deep.equal([]);
    expect(await ledger.readStream(retentionStream)).to.have.length(1);
  });

  it('runs on the configured schedule with the injected clock', async () => {
    const ledger = openMemoryLedger();
    const payloads = openMemoryPayloadStore();
    const old = await payloads.put('old words', '2026-01-01T00:00:00.000Z');
    let scheduled: { expression: string; job: () => Promise<void> } | null = null;
    const job = startRetention({ payloads, ledger }, defaultConfig(), {
      scheduler: (expression, _name, run) => { scheduled = { expression, job: run }; return { stop: () => undefined }; },
      clock: () => new Date('2026-06-01T00:00:00.000Z'),
    });
    expect(scheduled!.expression).to.equal(defaultConfig().retention.schedule);
    await scheduled!.job();
    expect(await payloads.get(old.ref)).to.equal(undefined);
    job.stop();
  });
});
