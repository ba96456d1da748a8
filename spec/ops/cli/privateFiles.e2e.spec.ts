/**
 * Private files with the real binary: `tollgate serve` under umask 022 leaves the data folder 0700 and every file in
 * it 0600 while it runs (WAL and shared-memory files included, after real decisions), tightens a folder it finds
 * looser and says so, and `tollgate doctor` names a file someone made 0644, with its mode and the chmod that fixes it.
 */
import { expect } from 'chai';
import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestOverSocket } from '../../../adapters/http/socketClient.ts';
import type { DoctorReport } from '../../../ops/doctor/checks.ts';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { useTempDir } from '../../support/tempDir.ts';

/** Every path under `dir` with its permission bits. */
const modes = (dir: string): Map<string, { mode: number; kind: 'dir' | 'file' | 'socket' | 'other' }> => {
  const found = new Map<string, { mode: number; kind: 'dir' | 'file' | 'socket' | 'other' }>();
  const visit = (path: string) => {
    const stat = lstatSync(path);
    const kind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : stat.isSocket() ? 'socket' : 'other';
    found.set(path, { mode: stat.mode & 0o777, kind });
    if (kind === 'dir') for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
};

/** Starts the daemon with umask 022 (the usual default), as a user's shell would. */
const startUnderUmask022 = async (args: string[], cwd: string) => {
  const previous = process.umask(0o022);
  try {
    return await startDaemon(args, cwd);
  } finally {
    process.umask(previous);
  }
};

const decide = async (socket: string) => {
  const hook = (name: string, body: Record<string, unknown>) => requestOverSocket(socket, 'POST', `/v1/hooks/hermes/${name}`, body);
  await hook('pre_llm_call', { session_id: 'p', user_message: 'list the files and clean the build folder', platform: 'cli' });
  expect((await hook('pre_tool_call', { session_id: 'p', tool_name: 'terminal', args: { command: 'ls -la' }, tool_call_id: 't1' })).json).to.include({ action: 'allow' });
  expect((await hook('pre_tool_call', { session_id: 'p', tool_name: 'terminal', args: { command: 'rm -r build/' }, tool_call_id: 't2' })).json).to.include({ verdict: 'ask' });
};

describe('private files (tollgate serve, doctor)', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-private');

  it('under umask 022 the data folder is 0700 and every file in it 0600, WAL and shm included, while the daemon runs', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  http:\n    enabled: true\n    port: 0\n'); // the HTTP token too
    const daemon = await startUnderUmask022([], cwd);
    const data = join(cwd, 'data');
    try {
      await decide(join(data, 'tollgate.sock'));
      await new Promise((resolve) => setTimeout(resolve, 300)); // the ledger's checkpoint is written on a timer
      const found = modes(data);
      const names = [...found.keys()].map((p) => p.slice(data.length + 1));
      // The files the property is about are really there (otherwise the walk below proves nothing).
      expect(names).to.include.members(['ledger.db', 'ledger.db-wal', 'ledger.db-shm', 'payloads.db', 'payloads.db-wal', 'payloads.db-shm',
        'ledger.db.checkpoint.json', 'keys', 'keys/checkpoint.ed25519', 'keys/payload-hmac.key', 'keys/checkpoint-hmac.key', 'projections', 'tollgate.sock', 'http-token']);
      const loose = [...found].filter(([, { mode, kind }]) => (kind === 'dir' ? mode !== 0o700 : mode !== 0o600));
      expect(loose.map(([path, { mode }]) => `${path} ${mode.toString(8)}`)).to.deep.equal([]);
    } finally {
      expect(await daemon.stop()).to.equal(0);
    }
    // Projection checkpoints are written at stop: private too.
    const after = [...modes(join(data, 'projections'))].filter(([, { mode, kind }]) => (kind === 'dir' ? mode !== 0o700 : mode !== 0o600));
    expect(readdirSync(join(data, 'projections'))).to.include('grants.json');
    expect(after).to.deep.equal([]);
  });

  it('tightens a data folder and files it finds looser, and says so in its output', async () => {
    const cwd = temp.current.path;
    const data = join(cwd, 'data');
    let daemon = await startUnderUmask022([], cwd);
    await decide(join(data, 'tollgate.sock'));
    await daemon.stop();
    chmodSync(data, 0o755);
    chmodSync(join(data, 'ledger.db'), 0o644);
    chmodSync(join(data, 'projections', 'grants.json'), 0o644);
    daemon = await startUnderUmask022([], cwd);
    try {
      expect(daemon.output()).to.include(`${data} was mode 0755; tightened to 0700`);
      expect(daemon.output()).to.include(`${join(data, 'ledger.db')} was mode 0644; tightened to 0600`);
      expect(lstatSync(data).mode & 0o777).to.equal(0o700);
      expect(lstatSync(join(data, 'ledger.db')).mode & 0o777).to.equal(0o600);
      expect(lstatSync(join(data, 'projections', 'grants.json')).mode & 0o777).to.equal(0o600);
    } finally {
      await daemon.stop();
    }
  });

  it('touches only its own entries when data.dir is shared with other files (a project folder keeps its modes)', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'data:\n  dir: .\nledger:\n  url: sqlite:./ledger.db\nserver:\n  socket: ./tollgate.sock\n');
    writeFileSync(join(cwd, 'notes.md'), 'mine\n');
    chmodSync(join(cwd, 'notes.md'), 0o644);
    mkdirSync(join(cwd, 'src'), { mode: 0o755 });
    chmodSync(join(cwd, 'src'), 0o755);
    const daemon = await startUnderUmask022([], cwd);
    try {
      await decide(join(cwd, 'tollgate.sock'));
      expect(lstatSync(join(cwd, 'notes.md')).mode & 0o777).to.equal(0o644);
      expect(lstatSync(join(cwd, 'src')).mode & 0o777).to.equal(0o755);
      for (const own of ['ledger.db', 'ledger.db-wal', 'payloads.db', 'payloads.db-wal']) expect(lstatSync(join(cwd, own)).mode & 0o777, own).to.equal(0o600);
      expect(lstatSync(cwd).mode & 0o777).to.equal(0o700);
    } finally {
      await daemon.stop();
    }
  });

  it('doctor fails on a file in the data folder made 0644, naming it, its mode and the chmod', async () => {
    const cwd = temp.current.path;
    const data = join(cwd, 'data');
    const daemon = await startUnderUmask022([], cwd);
    const doctor = async () => {
      const result = await runCli(['doctor', '--hermes-home', join(cwd, 'no-hermes'), '--json'], { cwd, env: { TOLLGATE_SOCKET: '', HERMES_HOME: '' } });
      return (JSON.parse(result.stdout) as DoctorReport).checks.find((c) => c.id === 'data.private')!;
    };
    try {
      await decide(join(data, 'tollgate.sock'));
      expect(await doctor()).to.include({ status: 'ok' });
      const payloads = join(data, 'payloads.db');
      chmodSync(payloads, 0o644);
      mkdirSync(join(data, 'extra'), { mode: 0o755 });
      chmodSync(join(data, 'extra'), 0o755);
      const check = await doctor();
      expect(check.status).to.equal('fail');
      expect(check.detail).to.include(`${payloads} is 0644`).and.to.include(`${join(data, 'extra')} is 0755`);
      expect(check.fix).to.include(`chmod 600 ${payloads}`).and.to.include(`chmod 700 ${join(data, 'extra')}`);
      chmodSync(join(data, 'keys', 'payload-hmac.key'), 0o640);
      expect((await doctor()).detail).to.include(`${join(data, 'keys', 'payload-hmac.key')} is 0640`);
    } finally {
      await daemon.stop();
    }
  });
});
