/**
 * The daemon's warm-up (ops/runtime/warmUp.ts), with the real binary: it answers made-up calls on a throwaway
 * gate before listening, and nothing of it reaches the real ledger, payload store or data folder; when it cannot
 * run, the daemon starts anyway, says why, and decides as always.
 */
import { expect } from 'chai';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';
import { requestOverSocket } from '../../support/httpClient.ts';
import { startDaemon } from '../../support/runCli.ts';
import { useTempDir } from '../../support/tempDir.ts';

describe('the daemon warm-up (tollgate serve)', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-warm-up-spec');

  const recorded = async (cwd: string) => {
    const ledger = await openLedger(`sqlite:${join(cwd, 'data', 'ledger.db')}`);
    try {
      return await ledger.readAll();
    } finally {
      await ledger.close();
    }
  };
  const decide = async (socket: string, command: string) => {
    await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 's1', user_message: 'tidy the build folder' });
    const reply = await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 's1', tool_name: 'terminal', args: { command }, tool_call_id: `c-${command}` });
    return (reply.json as { action?: string }).action ?? 'allow';
  };

  it('answers its made-up calls on a throwaway gate: the real ledger holds only what real callers sent, and its temporary folder is gone', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  warm_up_calls: 40\n');
    const ownTmp = join(cwd, 'tmp');
    mkdirSync(ownTmp);
    const daemon = await startDaemon([], cwd, { TMPDIR: ownTmp });
    try {
      expect(daemon.output()).to.include('warmed up: 40 made-up calls answered by a throwaway in-memory gate');
      expect(await decide(join(cwd, 'data', 'tollgate.sock'), 'rm -rf /')).to.equal('block');
    } finally {
      await daemon.stop();
    }
    // (tsx, which runs the sources, keeps its cache there too.)
    expect(readdirSync(ownTmp).filter((name) => name.startsWith('tollgate-warm-up-')), 'the warm-up folder and its socket are removed').to.deep.equal([]);
    const streams = new Set((await recorded(cwd)).map((e) => e.stream));
    expect([...streams].filter((s) => s.includes('warm-up')), 'no made-up session in the real ledger').to.deep.equal([]);
    expect(streams.has('config'), 'the start itself is recorded').to.equal(true);
    expect(streams.has('session-s1'), 'the real call is recorded').to.equal(true);
  });

  it('a warm-up that cannot run costs only speed: the daemon starts, says why, and still blocks and allows', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  warm_up_calls: 10\n');
    // A temporary folder so deep that no socket path inside it fits in a sockaddr_un (108 bytes).
    const deep = join(cwd, 'd'.repeat(60), 'e'.repeat(60));
    mkdirSync(deep, { recursive: true });
    const daemon = await startDaemon([], cwd, { TMPDIR: deep });
    try {
      expect(daemon.output()).to.match(/warm-up skipped: /);
      const socket = join(cwd, 'data', 'tollgate.sock');
      expect(await decide(socket, 'rm -rf /')).to.equal('block');
      expect(await decide(socket, 'ls -la')).to.equal('allow');
    } finally {
      await daemon.stop();
    }
    expect(readdirSync(deep).filter((name) => name.startsWith('tollgate-warm-up-')), 'its folder is removed').to.deep.equal([]);
  });

  it('server.warm_up_calls: 0 turns it off, and the start says so', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  warm_up_calls: 0\n');
    const daemon = await startDaemon([], cwd);
    try {
      expect(daemon.output()).to.include('warm-up off (server.warm_up_calls: 0)');
    } finally {
      await daemon.stop();
    }
  });
});
