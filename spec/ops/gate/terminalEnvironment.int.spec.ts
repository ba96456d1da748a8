/**
 * Red team 3, F6: Hermes dumps `export -p` after every terminal command and sources it before the next, so a
 * variable exported in one call is set in the next. Through the real Gate and bash grammar, under yolo: what an
 * earlier call exported is read into the later line (`rm -rf $D`, `$T approve`), a value the gate cannot know
 * stays unknown, and replay is exact (the resolved analysis travels in the command).
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { replaySession } from '../../../domain/session/replaySession.ts';
import type { Gate } from '../../../ops/gate/gate.ts';
import { openTestGate } from '../../support/openTestGate.ts';

const root = mkdtempSync(join(tmpdir(), 'tollgate-terminal-env-'));
const data = join(root, 'tollgate', 'data');
mkdirSync(join(data, 'keys'), { recursive: true });

describe("variables the session's terminal exported, carried into later calls (red team 3, F6)", function () {
  this.timeout(20_000);
  let gate: Gate;
  let session = 0;
  let sessionId = '';
  const call = (command: string) => gate.toolCall({ sessionId, tool: 'terminal', args: { command }, cwd: '/tmp' });

  before(async () => {
    gate = await openTestGate({ config: { data: { dir: data }, server: { socket: join(data, 'tollgate.sock') }, approvals: { yolo: true, mode: 'off' } } });
  });
  after(async () => {
    await gate.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    sessionId = `e${++session}`;
    await gate.userMessage({ sessionId, text: 'work on the project' });
  });

  it('reads a path exported in an earlier call: `export D=<data>` then `rm -rf $D` is the floor, not a lifted ask', async () => {
    expect((await call(`export D=${data}`)).verdict).to.equal('allow');
    for (const line of ['rm -rf $D', 'rm -f "${D}/ledger.db"', 'cat $D/keys/payload-hmac.key', 'echo x > $D/ledger.db']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
      expect(verdict.layer, line).to.equal('self-protection');
    }
  });

  it('reads a program name exported earlier: `export T=tollgate` then `$T approve x always`', async () => {
    await call('export T=tollgate A=approve');
    const verdict = await call('$T $A x always');
    expect(verdict.verdict, verdict.message).to.equal('block');
    expect(verdict.reasons).to.include('self-protection:tollgate-control-command');
  });

  it('forgets a variable unset or exported by a call that was blocked, and refuses one re-exported with a value it cannot know', async () => {
    await call(`export D=${data}`);
    await call('unset D');
    const unset = await call('rm -rf $D');
    expect(unset.verdict, `${unset.message} ${unset.reasons.join(',')}`).to.equal('allow');
    // Exported with a value the gate cannot read, the whole word may be anything the agent chose: the floor refuses.
    await call(`export D=${data}`);
    await call('export D=$(mktemp -d)');
    expect((await call('rm -rf $D')).verdict).to.equal('block');
    await call('unset D');
    // A blocked call ran nothing, so what it exported is not set.
    expect((await call(`export E=${data}; rm -rf ${data}`)).verdict).to.equal('block');
    const after = await call('echo $E');
    expect(after.verdict).to.equal('allow');
    const recorded = (await gate.ledger.readStream(`session-${sessionId}`)).filter((r) => r.type === 'ToolCallDecided').at(-1)!;
    expect(JSON.stringify(decodeEvent(recorded).data)).not.to.include(data);
  });

  it('blocks exporting a command variable whose text reaches the guard (GIT_PAGER, PROMPT_COMMAND run in later lines)', async () => {
    for (const line of [`export GIT_PAGER='rm -rf ${data}'`, `export PROMPT_COMMAND="rm -f ${data}/ledger.db"`]) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
      expect(verdict.layer).to.equal('self-protection');
    }
    expect((await call("export PROMPT_COMMAND='history -a' EDITOR=vim")).verdict).to.equal('allow');
  });

  it('loses the directory on a relative cd once CDPATH is exported (bash may land on any of its folders), until unset', async () => {
    const project = join(root, 'tollgate');
    expect((await call(`export CDPATH=${project}`)).verdict).to.equal('allow');
    for (const line of ['cd data && rm ledger.db', 'cd data; echo x > ledger.db']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
    }
    await call('cd data');
    const rm = await call('rm -f ledger.db');
    expect(rm.verdict, rm.message).to.equal('block');
    // An export whose value the gate cannot read counts as set too; `unset CDPATH` clears it.
    await call('unset CDPATH');
    await call('cd /tmp');
    await call('export CDPATH=$(cat /tmp/where)');
    expect((await call('cd data && rm ledger.db')).verdict).to.equal('block');
    await call('unset CDPATH');
    await call('cd /tmp');
    expect((await call('cd work && rm ledger.db')).verdict).to.equal('allow');
  });

  it('does not trust a value a later line may have changed: a plain reassignment, a branch, a subshell, a sourced file, a read-only name re-exported (red team 4, F3/F4)', async () => {
    for (const setup of [[`export D=/tmp`, `D=${data}`], [`export D=${data}`, 'false && export D=/tmp/safe'], [`export D=${data}`, '(export D=/tmp/safe)'],
      [`export D=${data}`, 'export D=/tmp/safe &'], ['export D=/tmp/safe', 'source ./env.sh'], ['set -a; D=$(cat /tmp/x)'], [`export D=${data}; readonly D`, 'export D=/tmp/safe']]) {
      sessionId = `e${++session}`;
      await gate.userMessage({ sessionId, text: 'work on the project' });
      for (const line of setup) await call(line);
      const verdict = await call('rm -rf $D');
      expect(verdict.verdict, `${setup.join(' ; ')} ; rm -rf $D: ${verdict.message}`).to.equal('block');
    }
  });

  it('blocks exporting a Hermes switch however its value got there, and an exported HOME elsewhere (later Hermes starts read ~/.hermes there)', async () => {
    expect((await call('printf -v HERMES_YOLO_MODE 1; export HERMES_YOLO_MODE')).verdict).to.equal('block');
    const moved = await call(`export HOME=${join(root, 'tollgate')}`);
    expect(moved.verdict, moved.message).to.equal('block');
    expect(moved.message).to.match(/HOME/);
  });

  it('fails closed once the session has exported more unknown variables than it keeps: every variable then counts as unknown', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `V${i}=$(cat /tmp/v${i})`).join(' ');
    expect((await call(`export ${many}`)).verdict).to.equal('allow');
    const verdict = await call('rm -rf $NEVER_EXPORTED');
    expect(verdict.verdict, verdict.message).to.equal('block');
  });

  it('keeps ordinary exported variables ordinary (`export NODE_ENV=test`, then `npm test`)', async () => {
    await call('export NODE_ENV=test BUILD=/tmp/out');
    for (const line of ['npm test', 'rm -rf $BUILD', 'echo $NODE_ENV > env.txt']) {
      expect((await call(line)).verdict, line).to.equal('allow');
    }
  });

  it('replays a session that exported and used variables exactly', async () => {
    for (const line of [`export D=${data}`, 'rm -rf $D', 'export X=1', 'echo $X']) await call(line);
    const records = (await gate.ledger.readStream(`session-${sessionId}`)).map((r) => ({ position: r.position, event: decodeEvent(r), metadata: r.metadata }));
    expect(replaySession(records).differences).to.deep.equal([]);
  });
});
