/** The separate-principal checks that need no second user: ptrace_scope, the single-user warning, a missing socket. */
import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { ptraceCheck, principalChecks } from '../../../ops/doctor/principalChecks.ts';
import { useTempDir } from '../../support/tempDir.ts';

describe('doctor: separate-principal checks', () => {
  const temp = useTempDir('tollgate-principals');

  describe('kernel.yama.ptrace_scope', () => {
    it('says "not available" (warn) where the file does not exist', () => {
      const check = ptraceCheck(temp.current.file('no-such-file'));
      expect(check.status).to.equal('warn');
      expect(check.detail).to.match(/^not available/);
    });
    it('warns at 0: any process may trace its user\'s other processes', () => {
      writeFileSync(temp.current.file('scope'), '0\n');
      expect(ptraceCheck(temp.current.file('scope')).status).to.equal('warn');
    });
    for (const value of ['1', '2', '3']) {
      it(`is ok at ${value}`, () => {
        writeFileSync(temp.current.file('scope'), `${value}\n`);
        expect(ptraceCheck(temp.current.file('scope')).status).to.equal('ok');
      });
    }
  });

  const listen = (path: string): Promise<Server> => new Promise((done) => { const server = createServer(); server.listen(path, () => done(server)); });

  it('a socket owned by the calling user is the single-user setup: one WARN line pointing to install system', async () => {
    mkdirSync(temp.current.file('data'));
    const socket = temp.current.file('data', 'tollgate.sock');
    const server = await listen(socket);
    try {
      const checks = principalChecks({ socket, humanSocket: null, configFile: null, dataDir: temp.current.file('data'), ptraceScopeFile: temp.current.file('none') });
      expect(checks.map((c) => c.id)).to.deep.equal(['principal.single_user', 'principal.ptrace']);
      expect(checks[0]!.status).to.equal('warn');
      expect(checks[0]!.detail).to.match(/^single-user setup/);
      expect(checks[0]!.fix).to.include('tollgate install system');
    } finally { server.close(); }
  });

  it('a socket owned by another uid is reported as separate; no socket cannot be judged', async () => {
    const socket = temp.current.file('tollgate.sock');
    const server = await listen(socket);
    try {
      const other = principalChecks({ socket, humanSocket: null, configFile: null, dataDir: temp.current.path, uid: 4242, ptraceScopeFile: temp.current.file('none') });
      expect(other[0]).to.include({ id: 'principal.daemon_user', status: 'ok' });
    } finally { server.close(); }
    const missing = principalChecks({ socket: temp.current.file('gone.sock'), humanSocket: null, configFile: null, dataDir: temp.current.path });
    expect(missing[0]).to.include({ id: 'principal.daemon_user', status: 'warn' });
  });
});
