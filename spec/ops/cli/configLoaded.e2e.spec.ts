/**
 * The configuration the daemon runs with is in the ledger: with the real binary, start on a tollgate.yaml, turn
 * yolo on in the file (as `sed -i 's/yolo: false/yolo: true/'` would), restart. The ledger holds two ConfigLoaded
 * events with the settings of each start, and doctor names the change and when it took effect; an edit not yet
 * in effect is reported before the next start.
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import type { Check, DoctorReport } from '../../../ops/doctor/checks.ts';
import type { ConfigLoadedData } from '../../../ops/runtime/configRecord.ts';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { useTempDir } from '../../support/tempDir.ts';

describe('ConfigLoaded (tollgate serve, doctor)', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-config');

  const configLoaded = async (cwd: string): Promise<ConfigLoadedData[]> => {
    const ledger = await openLedger(`sqlite:${join(cwd, 'data', 'ledger.db')}`);
    try {
      return (await ledger.readStream('config')).map((r) => decodeEvent(r)).map((e) => e.data as ConfigLoadedData);
    } finally {
      await ledger.close();
    }
  };
  const doctor = async (cwd: string) => {
    const result = await runCli(['doctor', '--hermes-home', join(cwd, 'no-hermes'), '--json'], { cwd, env: { TOLLGATE_SOCKET: '' } });
    const report = JSON.parse(result.stdout) as DoctorReport;
    return (id: string): Check | undefined => report.checks.find((c) => c.id === id);
  };
  const restart = async (cwd: string) => (await startDaemon([], cwd)).stop();

  it('start, yolo turned on in the file, restart: two ConfigLoaded events, and doctor names the change and its time', async () => {
    const cwd = temp.current.path;
    const file = join(cwd, 'tollgate.yaml');
    writeFileSync(file, 'approvals:\n  mode: manual\n  yolo: false\n  allowlist: [ "make test" ]\n');
    await restart(cwd);
    let check = await doctor(cwd);
    expect(check('config.settings')).to.include({ status: 'ok' });
    expect(check('config.settings')!.detail).to.include(`with ${file}`).and.to.include('yolo false').and.to.include('allowlist 1 entries');
    expect(check('config.changes')).to.include({ status: 'ok' });

    writeFileSync(file, readFileSync(file, 'utf8').replace('yolo: false', 'yolo: true'));
    // Not in effect yet: doctor already sees that the file differs from what the daemon runs with.
    check = await doctor(cwd);
    expect(check('config.file')).to.include({ status: 'warn' });
    expect(check('config.file')!.detail).to.include('approvals.yolo changed false → true');

    await restart(cwd);
    const events = await configLoaded(cwd);
    expect(events).to.have.length(2);
    expect(events.map((e) => e.settings.yolo)).to.deep.equal([false, true]);
    expect(events.map((e) => e.path)).to.deep.equal([file, file]);
    expect(events[0]!.digest).to.match(/^[0-9a-f]{64}$/).and.not.to.equal(events[1]!.digest);
    expect(events[1]!.settings).to.include({ approvalsMode: 'manual', allowlistLength: 1, ledgerKind: 'sqlite', socket: join(cwd, 'data', 'tollgate.sock') });

    check = await doctor(cwd);
    expect(check('config.settings')).to.include({ status: 'warn' });
    expect(check('config.settings')!.detail).to.include('approvals.yolo is on');
    expect(check('config.changes')).to.include({ status: 'warn' });
    expect(check('config.changes')!.detail).to.include(`approvals.yolo changed false → true at ${events[1]!.at}`);
    expect(check('config.file')).to.equal(undefined);

    // A restart with the same file is one more start on record, and the change stays named with its time.
    await restart(cwd);
    expect((await configLoaded(cwd)).map((e) => e.settings.yolo)).to.deep.equal([false, true, true]);
    expect((await doctor(cwd))('config.changes')!.detail).to.include(`approvals.yolo changed false → true at ${events[1]!.at}`).and.to.include('3 starts recorded');
  });

  it('a change that tightens the guard is reported without a warning', async () => {
    const cwd = temp.current.path;
    const file = join(cwd, 'tollgate.yaml');
    writeFileSync(file, 'approvals:\n  yolo: true\nfence:\n  mode: observe\n');
    await restart(cwd);
    writeFileSync(file, 'approvals:\n  yolo: false\nfence:\n  mode: enforce\n');
    await restart(cwd);
    const changes = (await doctor(cwd))('config.changes')!;
    expect(changes).to.include({ status: 'ok' });
    expect(changes.detail).to.include('approvals.yolo changed true → false').and.to.include('fence.mode changed observe → enforce');
  });
});
