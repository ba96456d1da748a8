/**
 * Red team 2, R7: the runtime registrations file sits in tollgate's keys folder, which the agent's user can write in
 * the single-user setup. Through the runtime the daemon uses (SQLite ledger, the real Gate): a registration added
 * to the file, or one whose key was swapped, is not taken back at the next start (RegistrationDropped, logged),
 * doctor's check reports such a file before the restart, and an untouched registration keeps signing.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { parseConfig } from '../../../ops/config/loadConfig.ts';
import { registrationChecks } from '../../../ops/doctor/registrationChecks.ts';
import { openRuntime, type Runtime } from '../../../ops/runtime/openRuntime.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';

const configIn = (dir: string) => parseConfig({
  ledger: { url: `sqlite:${join(dir, 'data', 'ledger.db')}` },
  data: { dir: join(dir, 'data') },
  server: { socket: join(dir, 'data', 'tollgate.sock') },
});

interface Stored { registrationId: string; runtime: string; pid: number | null; pidStart: string | null; key: string; at: string }
const fileOf = (dir: TempDir) => join(dir.path, 'data', 'keys', 'runtime-registrations.json');
const readStored = (dir: TempDir): Stored[] => (JSON.parse(readFileSync(fileOf(dir), 'utf8')) as { registrations: Stored[] }).registrations;
const writeStored = (dir: TempDir, registrations: Stored[]) => writeFileSync(fileOf(dir), `${JSON.stringify({ version: 1, registrations })}\n`, { mode: 0o600 });

describe('runtime registrations the daemon takes back at a restart (red team 2, R7)', function () {
  this.timeout(30_000);
  let dir: TempDir;
  const logs: string[] = [];
  const open: Runtime[] = [];
  const start = async () => { const r = await openRuntime(configIn(dir.path), { expiryTimers: false, log: (l) => logs.push(l) }); open.push(r); return r; };
  beforeEach(async () => { dir = await createTempDir('tollgate-registrations'); });
  afterEach(async () => {
    for (const r of open.splice(0)) await r.close().catch(() => undefined);
    await dir.remove();
    logs.length = 0;
  });

  it('keeps a registration the ledger vouches for, and drops one added to the file and one whose key was swapped', async () => {
    const first = await start();
    const kept = await first.gate.registerRuntime({ runtime: 'hermes', pid: null });
    const swapped = await first.gate.registerRuntime({ runtime: 'hermes', pid: null });
    await first.close(); open.length = 0;

    const stored = readStored(dir);
    const forgedKey = randomBytes(32);
    writeStored(dir, [
      ...stored.map((s) => (s.registrationId === swapped.registrationId ? { ...s, key: forgedKey.toString('base64') } : s)),
      { registrationId: 'forged', runtime: 'hermes', pid: null, pidStart: null, key: forgedKey.toString('base64'), at: '2026-12-01T00:00:00.000Z' },
    ]);

    const second = await start();
    expect(second.gate.runtimes.get(kept.registrationId)?.key.equals(kept.key)).to.equal(true);
    expect(second.gate.runtimes.get(swapped.registrationId)).to.equal(undefined);
    expect(second.gate.runtimes.get('forged')).to.equal(undefined);
    const dropped = (await second.ledger.readAll({ filter: { types: ['RegistrationDropped'] } })).map((r) => decodeEvent(r).data as { registrationId: string; problem: string });
    expect(dropped.map((d) => d.registrationId).sort()).to.deep.equal(['forged', swapped.registrationId].sort());
    expect(dropped.find((d) => d.registrationId === 'forged')!.problem).to.match(/no RuntimeRegistered/);
    expect(dropped.find((d) => d.registrationId === swapped.registrationId)!.problem).to.match(/key is not the one the daemon handed out/);
    expect(logs.some((l) => /registration forged dropped at start/.test(l))).to.equal(true);
    // The file is rewritten without them, so the next start has nothing more to drop.
    expect(readStored(dir).map((s) => s.registrationId)).to.deep.equal([kept.registrationId]);
  });

  it("doctor reports a stored key the ledger does not vouch for before the daemon restarts, and the drop after it", async () => {
    const first = await start();
    await first.gate.registerRuntime({ runtime: 'hermes', pid: null });
    const clean = await registrationChecks(first.ledger, first.config, 0);
    expect(clean.map((c) => c.status)).to.deep.equal(['ok']);
    writeStored(dir, [...readStored(dir), { registrationId: 'forged', runtime: 'hermes', pid: null, pidStart: null, key: randomBytes(32).toString('base64'), at: '2026-12-01T00:00:00.000Z' }]);
    const [before] = await registrationChecks(first.ledger, first.config, 0);
    expect(before).to.include({ id: 'runtime.registrations', status: 'warn' });
    expect(before!.detail).to.match(/forged: the ledger has no RuntimeRegistered/);
    await first.close(); open.length = 0;

    await (await start()).close(); open.length = 0;
    const ledger = await openLedger(configIn(dir.path).ledger.url, { sqlite: { keyPath: join(dir.path, 'data', 'keys', 'checkpoint.ed25519') } });
    try {
      const after = await registrationChecks(ledger, configIn(dir.path), 0);
      expect(after.map((c) => `${c.id}:${c.status}`)).to.deep.equal(['runtime.registrations.dropped:warn', 'runtime.registrations:ok']);
    } finally { await ledger.close(); }
  });
});
