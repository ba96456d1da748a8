/**
 * The grants checkpoint holds the allowlist, and its file sits where the agent's user can write it (single-user
 * setup). Through the runtime the daemon uses (SQLite ledger, files under data.dir, the real Gate): a checkpoint
 * doctored to add an allowlist entry, one copied from another data folder, and one without a MAC allow nothing;
 * each is recorded as CheckpointRejected and the allowlist is rebuilt to exactly what the ledger says.
 */
import { expect } from 'chai';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ledger } from '../../../adapters/ledger/port.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { describeEvent } from '../../../ops/cli/describeEvent.ts';
import { memoryCheckpointStore } from '../../../projections/checkpointStore.ts';
import { allowlistKey, grants } from '../../../projections/grants.ts';
import { runProjection } from '../../../projections/runProjection.ts';
import { parseConfig } from '../../../ops/config/loadConfig.ts';
import { openRuntime, type Runtime } from '../../../ops/runtime/openRuntime.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';

const configIn = (dir: string) => parseConfig({
  ledger: { url: `sqlite:${join(dir, 'data', 'ledger.db')}` },
  data: { dir: join(dir, 'data') },
  server: { socket: join(dir, 'data', 'tollgate.sock') },
});

/** The allowlist a fresh fold of the whole ledger gives: what the checkpointed one must equal. */
const ledgerAllowlist = async (ledger: Ledger) => {
  const fold = await runProjection(grants, ledger, memoryCheckpointStore());
  await fold.reached(await ledger.headPosition());
  const { allowlist } = fold.view().state;
  await fold.stop();
  return allowlist;
};

const rejections = async (ledger: Ledger) =>
  (await ledger.readAll({ filter: { types: ['CheckpointRejected'] } })).map((r) => decodeEvent(r).data as { projection: string; problem: string });

describe('projection checkpoints the gate loads', function () {
  this.timeout(30_000);
  const dirs: TempDir[] = [];
  const open: Runtime[] = [];
  const logs: string[] = [];
  const start = async (dir: TempDir) => {
    const runtime = await openRuntime(configIn(dir.path), { expiryTimers: false, log: (line) => logs.push(line) });
    open.push(runtime);
    return runtime;
  };
  const stop = async (runtime: Runtime) => {
    open.splice(open.indexOf(runtime), 1);
    await runtime.close();
  };
  const newDir = async () => { const dir = await createTempDir('tollgate-checkpoints'); dirs.push(dir); return dir; };
  afterEach(async () => {
    for (const runtime of open.splice(0)) await runtime.close().catch(() => undefined);
    for (const dir of dirs.splice(0)) await dir.remove();
    logs.length = 0;
  });

  /** A session where `rm -r build/` is asked about; returns its fingerprint as the ledger recorded it. */
  const askAbout = async (runtime: Runtime, sessionId: string, command = 'rm -r build/') => {
    await runtime.gate.userMessage({ sessionId, text: 'clean up the build folder' });
    const asked = await runtime.gate.toolCall({ sessionId, tool: 'terminal', args: { command } });
    expect(asked.verdict).to.equal('ask');
    const decided = (await runtime.ledger.readAll({ filter: { types: ['ToolCallDecided'] } })).map((r) => decodeEvent(r)).at(-1)!;
    return { approvalId: asked.approvalId!, fingerprint: (decided.data as { fingerprint: string }).fingerprint };
  };

  it('resumes from the checkpoint it wrote itself (no rejection), so the tests below are about the MAC', async () => {
    const dir = await newDir();
    let runtime = await start(dir);
    const { approvalId } = await askAbout(runtime, 'a');
    await runtime.gate.answer(approvalId, 'always');
    await stop(runtime);
    const saved = JSON.parse(readFileSync(join(dir.path, 'data', 'projections', 'grants.json'), 'utf8')) as { position: number; mac: string };
    expect(saved.position).to.be.greaterThan(0);
    expect(saved.mac).to.match(/^[0-9a-f]{64}$/);
    runtime = await start(dir);
    expect(await rejections(runtime.ledger)).to.deep.equal([]);
    expect(Object.keys(runtime.gate.projections.grants.view().state.allowlist)).to.have.length(1);
  });

  it('a doctored grants checkpoint adding an allowlist entry allows nothing; the allowlist is rebuilt from the ledger', async () => {
    const dir = await newDir();
    let runtime = await start(dir);
    // One real "always" so the ledger's allowlist is not empty, and one command only asked about.
    const real = await askAbout(runtime, 'a', 'systemctl restart nginx');
    await runtime.gate.answer(real.approvalId, 'always');
    const { fingerprint } = await askAbout(runtime, 'b');
    await stop(runtime);

    const file = join(dir.path, 'data', 'projections', 'grants.json');
    const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as { state: { allowlist: Record<string, string> } };
    checkpoint.state.allowlist[allowlistKey('terminal', fingerprint)] = 'forged-grant';
    writeFileSync(file, JSON.stringify(checkpoint));

    runtime = await start(dir);
    const again = await runtime.gate.toolCall({ sessionId: 'b', tool: 'terminal', args: { command: 'rm -r build/' } });
    expect(again.verdict).to.equal('ask');
    await runtime.gate.userMessage({ sessionId: 'c', text: 'clean up the build folder' });
    expect((await runtime.gate.toolCall({ sessionId: 'c', tool: 'terminal', args: { command: 'rm -r build/' } })).verdict).to.equal('ask');
    const allowlist = runtime.gate.projections.grants.view().state.allowlist;
    expect(allowlist).not.to.have.property(allowlistKey('terminal', fingerprint));
    expect(allowlist).to.deep.equal(await ledgerAllowlist(runtime.ledger));
    expect(Object.keys(allowlist)).to.have.length(1);
    const recorded = await rejections(runtime.ledger);
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.include({ projection: 'grants', problem: 'its MAC does not match (edited, or written under another key)' });
    expect(logs.join('\n')).to.include('projection checkpoint grants rejected');
    // What `tollgate audit` and `tail` print for it.
    const [record] = await runtime.ledger.readAll({ filter: { types: ['CheckpointRejected'] } });
    expect(describeEvent({ ...record!, event: decodeEvent(record!) })).to.match(/ops-daemon CHECKPOINT REJECTED grants: its MAC does not match .*\(rebuilt from the ledger\)$/);
  });

  it('a grants checkpoint copied from another data folder (another key) is rejected, though it is authentic there', async () => {
    const ours = await newDir();
    const theirs = await newDir();
    let runtime = await start(ours);
    const { fingerprint } = await askAbout(runtime, 'a');
    for (let i = 0; i < 5; i++) await runtime.gate.toolCall({ sessionId: 'a', tool: 'terminal', args: { command: `echo ${i}` } });
    await stop(runtime);
    // In the other folder a human really answered "always" for the same command.
    const other = await start(theirs);
    const there = await askAbout(other, 'x');
    expect(there.fingerprint).to.equal(fingerprint);
    await other.gate.answer(there.approvalId, 'always');
    await stop(other);
    copyFileSync(join(theirs.path, 'data', 'projections', 'grants.json'), join(ours.path, 'data', 'projections', 'grants.json'));

    runtime = await start(ours);
    await runtime.gate.userMessage({ sessionId: 'b', text: 'clean up the build folder' });
    expect((await runtime.gate.toolCall({ sessionId: 'b', tool: 'terminal', args: { command: 'rm -r build/' } })).verdict).to.equal('ask');
    expect(runtime.gate.projections.grants.view().state.allowlist).to.deep.equal({});
    expect((await rejections(runtime.ledger)).map((r) => r.projection)).to.deep.equal(['grants']);
  });

  it('a checkpoint without a MAC (hand-written, or from a tollgate before this one) is rejected and rebuilt', async () => {
    const dir = await newDir();
    let runtime = await start(dir);
    const { fingerprint } = await askAbout(runtime, 'a');
    await stop(runtime);
    const file = join(dir.path, 'data', 'projections', 'grants.json');
    const { mac: _mac, ...unsigned } = JSON.parse(readFileSync(file, 'utf8')) as { mac: string; state: { allowlist: Record<string, string> } };
    unsigned.state.allowlist[allowlistKey('terminal', fingerprint)] = 'forged-grant';
    writeFileSync(file, JSON.stringify(unsigned));
    runtime = await start(dir);
    expect(runtime.gate.projections.grants.view().state.allowlist).to.deep.equal({});
    expect(await rejections(runtime.ledger)).to.have.length(1).and.to.have.nested.property('[0].problem', 'it carries no MAC');
  });
});
