import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerEvent, blockResult, parseHookArgs, parseHttpResponse, readToolAnswer, resolveSocket } from '../../../adapters/hooks/hookClient.mjs';

describe('hook client (unit)', () => {
  describe('arguments', () => {
    it('reads the runtime, socket, timeout and the Claude Code choices', () => {
      expect(parseHookArgs(['--claude', '--socket', '/s', '--timeout-ms=250', '--on-allow', 'allow', '--on-ask', 'prompt'])).to.deep.equal({
        runtime: 'claude', socket: '/s', config: null, timeoutMs: 250, onAllow: 'allow', onAsk: 'prompt', help: false,
      });
      expect(parseHookArgs(['--hermes'])).to.include({ runtime: 'hermes', timeoutMs: 5000, onAllow: 'defer', onAsk: 'block' });
    });

    for (const [argv, message] of [
      [[], /--hermes or --claude/],
      [['--hermes', '--claude'], /one of/],
      [['--hermes', '--timeout-ms', '0'], /whole number/],
      [['--hermes', '--timeout-ms', 'soon'], /whole number/],
      [['--hermes', '--socket'], /needs a value/],
      [['--claude', '--on-ask', 'maybe'], /"block" or "prompt"/],
      [['--hermes', '--frobnicate'], /unknown argument/],
    ] as const) {
      it(`refuses ${JSON.stringify(argv)}`, () => {
        expect(() => parseHookArgs(argv)).to.throw(message);
      });
    }
  });

  describe('socket', () => {
    it('takes --socket, then $TOLLGATE_SOCKET, then server.socket of the configuration, then ./data/tollgate.sock', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tollgate-hookargs-'));
      try {
        const none = { socket: null, config: null };
        expect(await resolveSocket({ socket: 'a.sock', config: null }, {}, dir)).to.equal(join(dir, 'a.sock'));
        expect(await resolveSocket(none, { TOLLGATE_SOCKET: '/env.sock' }, dir)).to.equal('/env.sock');
        expect(await resolveSocket(none, {}, dir)).to.equal(join(dir, 'data/tollgate.sock'));
        writeFileSync(join(dir, 'tollgate.yaml'), 'server:\n  socket: ./run/t.sock\n');
        expect(await resolveSocket(none, {}, dir)).to.equal(join(dir, 'run/t.sock'));
        writeFileSync(join(dir, 'other.yaml'), 'ledger:\n  url: "memory:"\n');
        expect(await resolveSocket({ socket: null, config: 'other.yaml' }, {}, dir)).to.equal(join(dir, 'data/tollgate.sock'));
        writeFileSync(join(dir, 'bad.yaml'), 'server: [\n');
        await resolveSocket({ socket: null, config: 'bad.yaml' }, {}, dir).then(() => expect.fail('accepted'), (e: Error) => expect(e.message).to.match(/not valid YAML/));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('HTTP answers', () => {
    it('reads Content-Length and chunked bodies', () => {
      expect(parseHttpResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}trailing'))).to.deep.equal({ status: 200, text: '{}' });
      expect(parseHttpResponse(Buffer.from('HTTP/1.1 503 Busy\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n'))).to.deep.equal({ status: 503, text: '{"a":1}' });
    });

    it('refuses what is not a complete HTTP answer', () => {
      expect(() => parseHttpResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Le'))).to.throw(/complete/);
      expect(() => parseHttpResponse(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).to.throw(/HTTP/);
      expect(() => parseHttpResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}'))).to.throw(/truncated/);
    });
  });

  describe('decisions', () => {
    it('allows only a 200 answer that says allow', () => {
      expect(readToolAnswer({ status: 200, text: '{"action":"allow","reasons":[]}' }).kind).to.equal('allow');
      expect(readToolAnswer({ status: 500, text: '{"action":"allow"}' }).kind).to.equal('block');
    });

    it('reads an ask only with a question id', () => {
      expect(readToolAnswer({ status: 200, text: '{"action":"ask","approvalId":"q1","message":"m"}' })).to.deep.include({ kind: 'ask', approvalId: 'q1' });
      expect(readToolAnswer({ status: 200, text: '{"action":"approve","approval_id":"q2"}' })).to.deep.include({ kind: 'ask', approvalId: 'q2' });
      expect(readToolAnswer({ status: 200, text: '{"action":"ask"}' }).kind).to.equal('block');
    });

    for (const text of ['', 'not json', '[]', '"allow"', '{"action":"maybe"}', '{"verdict":"allow"}']) {
      it(`blocks on the garbage answer ${JSON.stringify(text)}`, () => {
        const answer = readToolAnswer({ status: 200, text });
        expect(answer.kind).to.equal('block');
        expect(answer.reasons).to.deep.equal(['hook:bad-answer']);
      });
    }

    it('keeps the daemon\'s block message and reasons', () => {
      expect(readToolAnswer({ status: 422, text: '{"action":"block","message":"bad input","reasons":["input:invalid"]}' }))
        .to.deep.equal({ kind: 'block', message: 'bad input', reasons: ['input:invalid'] });
    });
  });

  describe('output', () => {
    it('writes a block in each runtime\'s format, with the reason on stderr and exit code 2', () => {
      expect(blockResult('hermes', 'no')).to.deep.equal({ exitCode: 2, stdout: '{"action":"block","message":"no"}\n', stderr: 'no\n' });
      expect(JSON.parse(blockResult('claude', 'no').stdout)).to.deep.equal({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    });

    it('blocks stdin that is not a JSON object before asking anyone', async () => {
      const options = parseHookArgs(['--hermes', '--socket', '/nonexistent/t.sock']);
      for (const stdin of ['', '{', '[1]', 'null']) {
        const result = await answerEvent({ options, stdin });
        expect(result.exitCode, stdin).to.equal(2);
        expect(JSON.parse(result.stdout)).to.have.property('action', 'block');
      }
    });
  });
});
