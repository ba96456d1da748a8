import { expect } from 'chai';
import fc from 'fast-check';
import { heldReplyNotice } from '../../../ops/gate/verdicts.ts';
import type { DaemonResponse } from '../../support/httpClient.ts';
import { delegatingGate, eventually, sleep, startDaemon, startSession, type Daemon } from './support/daemonFixture.ts';
import { parseRawResponse, rawConnect } from './support/rawRequest.ts';

type Json = Record<string, unknown>;
const errorOf = (reply: DaemonResponse) => (reply.json as { error: { code: string; message: string; where: string } }).error;
const maxBodyBytes = 4096;

/** After any bad request, a good one still gets a real decision. */
const expectStillServing = async (daemon: Daemon): Promise<void> => {
  const sessionId = `after-${Math.random().toString(36).slice(2)}`;
  await startSession(daemon, sessionId);
  const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call', { session_id: sessionId, tool_name: 'terminal', args: { command: 'ls' }, tool_call_id: 'ok' });
  expect(reply.status).to.equal(200);
  expect(reply.json).to.include({ action: 'allow' });
};

const lastRejection = async (daemon: Daemon): Promise<Json> => {
  const rejected = await daemon.recorded('RequestRejected');
  expect(rejected, 'a RequestRejected event').to.not.be.empty;
  return rejected.at(-1)!.data as Json;
};

describe('bad input never crashes the daemon and never allows a tool call', () => {
  let daemon: Daemon;
  afterEach(async () => { await daemon?.stop(); });

  describe('on the Hermes pre_tool_call hook', () => {
    beforeEach(async () => { daemon = await startDaemon({ server: { maxBodyBytes, bodyTimeoutMs: 300 } }); });
    const hook = '/v1/hooks/hermes/pre_tool_call';

    const cases: { name: string; body: string | Json; status: number; code: string; where: string }[] = [
      { name: 'malformed JSON', body: '{"tool_name": "terminal", "args": {"command": "rm -rf /"', status: 400, code: 'bad-json', where: 'body' },
      { name: 'an empty body', body: '', status: 400, code: 'bad-json', where: 'body' },
      { name: 'a JSON array instead of an object', body: '[1, 2]', status: 400, code: 'invalid-body', where: 'body' },
      { name: 'args of the wrong type', body: { session_id: 's1', tool_name: 'terminal', args: 'rm -rf /' }, status: 400, code: 'invalid-body', where: 'args' },
      { name: 'a missing tool_name', body: { session_id: 's1', args: { command: 'rm -rf /' } }, status: 400, code: 'invalid-body', where: 'tool_name' },
      { name: 'a session_id that is a number', body: { session_id: 7, tool_name: 'terminal', args: {} }, status: 400, code: 'invalid-body', where: 'session_id' },
      { name: 'an empty session_id', body: { session_id: '', tool_name: 'terminal', args: {} }, status: 400, code: 'invalid-body', where: 'session_id' },
    ];
    for (const c of cases)
      it(`answers ${c.name} with ${c.status} ${c.code} at "${c.where}", a block, and a recorded rejection`, async () => {
        await startSession(daemon, 's1');
        const reply = await daemon.request('POST', hook, c.body);
        expect(reply.status).to.equal(c.status);
        expect(errorOf(reply)).to.include({ code: c.code, where: c.where });
        const json = reply.json as Json;
        expect(json).to.include({ action: 'block', verdict: 'block', layer: 'input' });
        expect(json['message']).to.be.a('string').that.includes(errorOf(reply).message.slice(0, 30));
        expect(json['reasons']).to.deep.equal([`input:${c.code}`]);
        const rejection = await lastRejection(daemon);
        expect(rejection).to.include({ endpoint: 'hermes:pre_tool_call', toolCall: true });
        expect(rejection['problem']).to.include(c.code).and.include(c.where);
        await expectStillServing(daemon);
      });

    it('files a rejected call under its session when the body names one', async () => {
      await daemon.request('POST', hook, { session_id: 'known', tool_name: 42, args: {} });
      expect(await lastRejection(daemon)).to.include({ sessionId: 'known', toolCall: true });
    });

    it('answers a body over server.max_body_bytes with 413 without storing it, then keeps serving', async () => {
      const huge = { session_id: 's1', tool_name: 'terminal', args: { command: `echo ${'x'.repeat(maxBodyBytes * 4)}` } };
      const reply = await daemon.request('POST', hook, huge);
      expect(reply.status).to.equal(413);
      expect(errorOf(reply)).to.include({ code: 'body-too-large', where: 'body' });
      expect(reply.json).to.include({ action: 'block' });
      expect(await lastRejection(daemon)).to.include({ toolCall: true });
      await expectStillServing(daemon);
    });

    it('stops reading a chunked body at the limit (no Content-Length to refuse up front)', async () => {
      const raw = await rawConnect(daemon.socket);
      raw.socket.write(`POST ${hook} HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n`);
      const chunk = 'x'.repeat(1024);
      for (let i = 0; i < 8; i++) raw.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      raw.socket.write('0\r\n\r\n');
      const { status, json } = parseRawResponse(await raw.received(500));
      raw.socket.destroy();
      expect(status).to.equal(413);
      expect(json).to.include({ action: 'block' });
      await expectStillServing(daemon);
    });

    it('records a client that closes the connection mid-body, and keeps serving', async () => {
      const raw = await rawConnect(daemon.socket);
      raw.socket.write(`POST ${hook} HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"session_id": "s1", "tool_`);
      await sleep(20);
      raw.socket.destroy();
      const rejection = await eventually(async () => {
        const r = await lastRejection(daemon);
        expect(r['problem']).to.include('client-closed');
        return r;
      });
      expect(rejection).to.include({ endpoint: 'hermes:pre_tool_call', toolCall: true });
      await expectStillServing(daemon);
    });

    it('answers a body that arrives too slowly with 408 and a block', async () => {
      const raw = await rawConnect(daemon.socket);
      raw.socket.write(`POST ${hook} HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"session_id": "s1"`);
      const { status, json } = parseRawResponse(await raw.received(3000));
      raw.socket.destroy();
      expect(status).to.equal(408);
      expect((json as { error: Json }).error).to.include({ code: 'body-timeout', where: 'body' });
      expect(json).to.include({ action: 'block' });
      await expectStillServing(daemon);
    });

    it('answers bytes that are not HTTP with a 400 JSON error, and keeps serving', async () => {
      const raw = await rawConnect(daemon.socket);
      raw.socket.write('\u0000\u0001 this is not HTTP\r\n\r\n');
      const { status, json } = parseRawResponse(await raw.received(1000));
      raw.socket.destroy();
      expect(status).to.equal(400);
      expect((json as { error: Json }).error).to.include({ code: 'bad-request', where: 'request' });
      await eventually(async () => expect(await lastRejection(daemon)).to.include({ endpoint: 'http', toolCall: false }));
      await expectStillServing(daemon);
    });

    it('never answers allow to any body, valid or not, for a session that has no user message', async () => {
      const bodies = fc.oneof(
        fc.jsonValue(),
        fc.record({ session_id: fc.oneof(fc.string(), fc.integer()), tool_name: fc.oneof(fc.constantFrom('terminal', 'write_file', 'read_file'), fc.string()), args: fc.dictionary(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }),
      );
      await fc.assert(fc.asyncProperty(bodies, async (body) => {
        const reply = await daemon.request('POST', hook, JSON.stringify(body));
        expect([200, 400]).to.include(reply.status);
        expect((reply.json as Json)['action']).to.equal('block');
      }), { numRuns: 60 });
      await expectStillServing(daemon);
    });
  });

  describe('on other endpoints', () => {
    beforeEach(async () => { daemon = await startDaemon({ server: { maxBodyBytes, bodyTimeoutMs: 300 } }); });

    it('answers an unknown hook with 404 naming the hook, as a block when it looks like a tool hook', async () => {
      const toolish = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_cal', { session_id: 's1' });
      expect(toolish.status).to.equal(404);
      expect(errorOf(toolish)).to.include({ code: 'unknown-hook', where: 'path.hook' });
      expect(toolish.json).to.include({ action: 'block' });
      const other = await daemon.request('POST', '/v1/hooks/hermes/on_mystery', { session_id: 's1' });
      expect(other.status).to.equal(404);
      expect(other.json).to.have.keys(['error']);
      expect(await lastRejection(daemon)).to.include({ endpoint: 'hermes:on_mystery', toolCall: false });
      await expectStillServing(daemon);
    });

    it('answers a bad generic tool call with the full blocked verdict', async () => {
      const reply = await daemon.request('POST', '/v1/tool-calls', '{"session_id":"g1","tool":');
      expect(reply.status).to.equal(400);
      expect(reply.json).to.include({ action: 'block', verdict: 'block', layer: 'input', approvalId: null });
      expect(reply.json).to.include.keys(['callId', 'sessionId', 'wouldBlock', 'position', 'error']);
      expect(await lastRejection(daemon)).to.include({ endpoint: 'tool-calls', toolCall: true });
      await expectStillServing(daemon);
    });

    it('holds back the reply when transform_llm_output gets a bad body (the hook would fail open)', async () => {
      const reply = await daemon.request('POST', '/v1/hooks/hermes/transform_llm_output', { session_id: 's1', response_text: 12 });
      expect(reply.status).to.equal(400);
      expect(reply.json).to.include({ response_text: heldReplyNotice, verdict: 'block' });
      expect(errorOf(reply).where).to.equal('response_text');
      const generic = await daemon.request('POST', '/v1/outputs', { text: 'hi' });
      expect(generic.json).to.include({ replacement: heldReplyNotice, verdict: 'block' });
      expect(errorOf(generic).where).to.equal('session_id');
      await expectStillServing(daemon);
    });

    it('answers a bad message with 400 naming the field, recorded as not a tool call', async () => {
      const reply = await daemon.request('POST', '/v1/messages', { session_id: 's1', text: ['not', 'text'] });
      expect(reply.status).to.equal(400);
      expect(reply.json).to.have.keys(['error']);
      expect(errorOf(reply)).to.include({ code: 'invalid-body', where: 'text' });
      expect(await lastRejection(daemon)).to.include({ endpoint: 'messages', toolCall: false, sessionId: 's1' });
      await expectStillServing(daemon);
    });

    it('answers an unknown path with 404 and a wrong method with 405', async () => {
      const missing = await daemon.request('GET', '/v2/nothing');
      expect(missing.status).to.equal(404);
      expect(errorOf(missing)).to.include({ code: 'unknown-route', where: 'path' });
      const wrong = await daemon.request('GET', '/v1/tool-calls');
      expect(wrong.status).to.equal(405);
      expect(wrong.json).to.include({ action: 'block' });
      await expectStillServing(daemon);
    });

    it('answers a bad stream filter with 400 naming the parameter', async () => {
      const reply = await daemon.request('GET', '/v1/stream?verdict=maybe');
      expect(reply.status).to.equal(400);
      expect(errorOf(reply)).to.include({ code: 'invalid-query', where: 'query.verdict' });
      const resume = await daemon.request('GET', '/v1/stream', undefined, { 'last-event-id': 'yesterday' });
      expect(errorOf(resume).where).to.equal('header.last-event-id');
      await expectStillServing(daemon);
    });
  });

  describe('when the gate is slow or fails', () => {
    it('blocks a decision that takes longer than server.decision_timeout, with reason gate:decision-timeout', async () => {
      daemon = await startDaemon({
        gate: { config: { server: { decision_timeout: '100ms' } } },
        wrap: (gate) => delegatingGate(gate, { toolCall: async (input) => { await sleep(input.tool === 'slow' ? 400 : 0); return gate.toolCall(input); } }),
      });
      await startSession(daemon, 's1');
      const started = Date.now();
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 's1', tool_name: 'slow', args: {}, tool_call_id: 'late' });
      expect(Date.now() - started).to.be.below(350);
      expect(reply.status).to.equal(200);
      expect(reply.json).to.include({ action: 'block', verdict: 'block', call_id: 'late' });
      expect((reply.json as Json)['reasons']).to.deep.equal(['gate:decision-timeout']);
      expect((await lastRejection(daemon))['problem']).to.include('decision-timeout');
      await expectStillServing(daemon);
    });

    it('holds back a reply whose check takes longer than the decision timeout', async () => {
      daemon = await startDaemon({
        server: { decisionTimeoutMs: 100 },
        wrap: (gate) => delegatingGate(gate, { output: async (input) => { await sleep(400); return gate.output(input); } }),
      });
      const reply = await daemon.request('POST', '/v1/hooks/hermes/transform_llm_output', { session_id: 's1', response_text: 'hi' });
      expect(reply.json).to.include({ response_text: heldReplyNotice, verdict: 'block' });
      expect((reply.json as Json)['reasons']).to.deep.equal(['gate:decision-timeout']);
    });

    it('answers 500 with a block when the gate throws, and keeps serving', async () => {
      daemon = await startDaemon({
        wrap: (gate) => delegatingGate(gate, { toolCall: async (input) => { if (input.tool === 'boom') throw new Error('kaboom'); return gate.toolCall(input); } }),
      });
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 's1', tool_name: 'boom', args: {} });
      expect(reply.status).to.equal(500);
      expect(reply.json).to.include({ action: 'block' });
      expect((reply.json as Json)['reasons']).to.deep.equal(['gate:internal-error']);
      expect(errorOf(reply)).to.include({ code: 'internal-error' });
      expect(errorOf(reply).message).to.include('kaboom');
      expect(await lastRejection(daemon)).to.include({ toolCall: true, sessionId: 's1' });
      await expectStillServing(daemon);
    });
  });
});
