import { expect } from 'chai';
import { statSync, writeFileSync, existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createDaemonServer } from '../../../adapters/http/daemonServer.ts';
import { requestDaemon } from '../../support/httpClient.ts';
import { createTempDir } from '../../support/tempDir.ts';
import { startDaemon, testToken, type Daemon } from './support/daemonFixture.ts';

describe('daemon listeners', () => {
  let daemon: Daemon;
  beforeEach(async () => { daemon = await startDaemon({ http: true }); });
  afterEach(async () => { await daemon.stop(); });

  describe('the Unix socket', () => {
    it('is created with mode 0600, so only the daemon user can ask for decisions', () => {
      const stat = statSync(daemon.socket);
      expect(stat.isSocket()).to.equal(true);
      expect(stat.mode & 0o777).to.equal(0o600);
    });

    it('needs no token: the file mode is its access control', async () => {
      const reply = await daemon.request('GET', '/v1/health');
      expect(reply.status).to.equal(200);
      expect(reply.json).to.deep.include({ ok: true, version: '9.9.9-test' });
    });

    it('replaces a stale socket file left by a crashed daemon', async () => {
      const dir = await createTempDir('tollgate-stale');
      const path = dir.file('stale.sock');
      // A daemon killed with SIGKILL leaves its socket file behind.
      const crashed = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise((resolve) => crashed.stdout.once('data', resolve));
      crashed.kill('SIGKILL');
      await new Promise((resolve) => crashed.once('exit', resolve));
      expect(statSync(path).isSocket()).to.equal(true);
      const server = createDaemonServer(daemon.gate);
      try {
        await server.listenSocket(path);
        expect(statSync(path).mode & 0o777).to.equal(0o600);
      } finally {
        await server.close();
        await dir.remove();
      }
    });

    it('refuses to take over a socket another daemon still answers on', async () => {
      const server = createDaemonServer(daemon.gate);
      try {
        await server.listenSocket(daemon.socket).then(() => expect.fail('listened twice'), (error: Error) => expect(error.message).to.match(/already listening/));
        expect((await daemon.request('GET', '/v1/health')).status).to.equal(200);
      } finally { await server.close(); }
    });

    it('never deletes a file that is not a socket', async () => {
      const path = daemon.dir.file('not-a-socket');
      writeFileSync(path, 'keep me');
      const server = createDaemonServer(daemon.gate);
      try {
        await server.listenSocket(path).then(() => expect.fail('replaced a file'), (error: Error) => expect(error.message).to.match(/not a socket/));
        expect(existsSync(path)).to.equal(true);
      } finally { await server.close(); }
    });

    it('refuses a path too long for a Unix socket with a clear error', async () => {
      const server = createDaemonServer(daemon.gate);
      await server.listenSocket(daemon.dir.file(`${'d'.repeat(120)}.sock`))
        .then(() => expect.fail('listened'), (error: Error) => expect(error.message).to.match(/at most 107/));
      await server.close();
    });

    it('is removed when the server closes', async () => {
      const dir = await createTempDir('tollgate-close');
      const server = createDaemonServer(daemon.gate);
      await server.listenSocket(dir.file('d.sock'));
      await server.close();
      expect(existsSync(dir.file('d.sock'))).to.equal(false);
      await dir.remove();
    });
  });

  describe('the loopback HTTP listener', () => {
    const target = () => ({ host: '127.0.0.1', port: daemon.http!.port });

    it('answers a request with the right bearer token', async () => {
      const reply = await requestDaemon({ ...target(), token: testToken }, 'GET', '/v1/health');
      expect(reply.status).to.equal(200);
    });

    it('answers 401 without a token, and a tool call sent without one is a block', async () => {
      expect((await requestDaemon(target(), 'GET', '/v1/health')).status).to.equal(401);
      const bare = await requestDaemon(target(), 'POST', '/v1/hooks/hermes/pre_tool_call',
        { session_id: 's', tool_name: 'terminal', args: { command: 'ls' } });
      expect(bare.status).to.equal(401);
      expect(bare.json).to.deep.include({ action: 'block' });
      expect((bare.json as { error: { code: string } }).error.code).to.equal('unauthorized');
    });

    it('answers 401 to a wrong token, and records nothing for it', async () => {
      const before = (await daemon.recorded()).length;
      const reply = await requestDaemon({ ...target(), token: `${testToken}x` }, 'GET', '/v1/health');
      expect(reply.status).to.equal(401);
      expect(reply.headers['www-authenticate']).to.equal('Bearer');
      expect((await daemon.recorded()).length).to.equal(before);
    });

    it('refuses to listen on an address that is not loopback', async () => {
      const server = createDaemonServer(daemon.gate);
      for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '10.0.0.1'])
        await server.listenHttp(host, 0, testToken).then(() => expect.fail(`listened on ${host}`), (error: Error) => expect(error.message).to.match(/loopback only/));
      await server.close();
    });

    it('refuses a token too short to be a secret', async () => {
      const server = createDaemonServer(daemon.gate);
      await server.listenHttp('127.0.0.1', 0, 'short').then(() => expect.fail('accepted a short token'), (error: Error) => expect(error.message).to.match(/at least 16/));
      await server.close();
    });
  });
});
