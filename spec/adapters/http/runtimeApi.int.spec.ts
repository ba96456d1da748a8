import { expect } from 'chai';
import { askingCommand, preToolCall, sleep, startDaemon, startSession, type Daemon } from './support/daemonFixture.ts';

type Json = Record<string, unknown>;

describe('generic runtime API, approvals, projections and health', () => {
  let daemon: Daemon;
  beforeEach(async () => { daemon = await startDaemon(); });
  afterEach(async () => { await daemon.stop(); });

  describe('POST /v1/messages, /v1/tool-calls, /v1/outputs', () => {
    it('records a message and answers with its ledger position', async () => {
      const reply = await daemon.request('POST', '/v1/messages', { session_id: 'g1', text: 'Run the tests.', sender_id: 'u', platform: 'api' });
      expect(reply.status).to.equal(200);
      expect((reply.json as Json)['position']).to.be.a('number').above(0);
    });

    it('answers a tool call with the full verdict, using the caller\'s call id', async () => {
      await daemon.request('POST', '/v1/messages', { session_id: 'g1', text: 'Run the tests.' });
      const reply = await daemon.request('POST', '/v1/tool-calls', { session_id: 'g1', tool: 'terminal', args: { command: 'rm -rf /' }, call_id: 'k1' });
      expect(reply.status).to.equal(200);
      const json = reply.json as Json;
      expect(json).to.include({ action: 'block', verdict: 'block', layer: 'hardline', callId: 'k1', sessionId: 'g1', approvalId: null });
      expect(json).to.have.keys(['action', 'verdict', 'layer', 'reasons', 'message', 'callId', 'sessionId', 'approvalId', 'expiresAt', 'wouldBlock', 'position']);
    });

    it('mints a call id when the runtime gives none', async () => {
      await daemon.request('POST', '/v1/messages', { session_id: 'g1', text: 'x' });
      const json = (await daemon.request('POST', '/v1/tool-calls', { session_id: 'g1', tool: 'read_file', args: { path: 'a' } })).json as Json;
      expect(json['callId']).to.be.a('string').with.length.above(0);
      expect(json['verdict']).to.equal('allow');
    });

    it('checks outgoing text and answers the output verdict', async () => {
      await daemon.request('POST', '/v1/messages', { session_id: 'g1', text: 'x' });
      const json = (await daemon.request('POST', '/v1/outputs', { session_id: 'g1', text: 'All done.', channel: 'final-reply' })).json as Json;
      expect(json).to.include({ verdict: 'allow', replacement: null });
      const [checked] = await daemon.recorded('OutputChecked');
      expect(checked?.data).to.deep.include({ channel: 'final-reply', length: 'All done.'.length });
    });
  });

  describe('approvals', () => {
    const ask = async (sessionId = 's1'): Promise<string> => {
      await startSession(daemon, sessionId);
      const json = (await preToolCall(daemon, sessionId, askingCommand)).json as Json;
      expect(json['action']).to.equal('approve');
      return json['approval_id'] as string;
    };

    it('lists open questions from the projection', async () => {
      const id = await ask();
      const json = (await daemon.request('GET', '/v1/approvals')).json as { approvals: Json[]; caughtUp: boolean };
      expect(json.approvals).to.have.length(1);
      expect(json.approvals[0]).to.include({ approvalId: id, sessionId: 's1', tool: 'terminal' });
    });

    it('answers a question on the human socket, recorded as answered by the channel (not the body\'s answered_by)', async () => {
      const id = await ask();
      const reply = await daemon.human('POST', `/v1/approvals/${id}`, { answer: 'once', answered_by: 'alice' });
      expect(reply.status).to.equal(200);
      expect(reply.json).to.deep.equal({ approvalId: id, outcome: 'allowed', sessionId: 's1', answer: 'once' });
      expect(((await daemon.request('GET', '/v1/approvals')).json as { approvals: unknown[] }).approvals).to.deep.equal([]);
      const [answered] = await daemon.recorded('ApprovalAnswered');
      expect(answered?.data).to.deep.include({ answeredBy: 'human-socket', answer: 'once' });
    });

    it('answers 404 to an unknown question (and to one already answered)', async () => {
      const unknown = await daemon.human('POST', '/v1/approvals/nope', { answer: 'deny' });
      expect(unknown.status).to.equal(404);
      expect((unknown.json as { error: { code: string; where: string } }).error).to.include({ code: 'unknown-approval', where: 'path.id' });
      const id = await ask();
      await daemon.human('POST', `/v1/approvals/${id}`, { answer: 'deny' });
      expect((await daemon.human('POST', `/v1/approvals/${id}`, { answer: 'once' })).status).to.equal(404);
    });

    it('rejects an answer that is not once, session, always or deny', async () => {
      const id = await ask();
      const reply = await daemon.request('POST', `/v1/approvals/${id}`, { answer: 'yes please' });
      expect(reply.status).to.equal(400);
      expect((reply.json as { error: { where: string } }).error.where).to.equal('answer');
    });

    it('long-polls until the human answers', async () => {
      const id = await ask();
      const waiting = daemon.request('GET', `/v1/approvals/${id}/wait?timeout_ms=5000`);
      await sleep(50);
      await daemon.human('POST', `/v1/approvals/${id}`, { answer: 'deny' });
      const reply = await waiting;
      expect(reply.status).to.equal(200);
      expect(reply.json).to.include({ approvalId: id, outcome: 'denied', answer: 'deny' });
    });

    it('ends a long-poll at its timeout with the question still pending', async () => {
      const id = await ask();
      const started = Date.now();
      const reply = await daemon.request('GET', `/v1/approvals/${id}/wait?timeout_ms=100`);
      expect(Date.now() - started).to.be.within(90, 2000);
      expect(reply.json).to.include({ approvalId: id, outcome: 'pending' });
    });

    it('caps a long-poll at the server\'s maximum wait, whatever timeout_ms asks for', async () => {
      await daemon.stop();
      daemon = await startDaemon({ server: { maxWaitMs: 100 } });
      const id = await ask();
      const started = Date.now();
      const reply = await daemon.request('GET', `/v1/approvals/${id}/wait?timeout_ms=3600000`);
      expect(Date.now() - started).to.be.below(2000);
      expect(reply.json).to.include({ outcome: 'pending' });
    });

    it('answers 404 to a wait on an unknown question, and 400 to a bad timeout', async () => {
      expect((await daemon.request('GET', '/v1/approvals/nope/wait?timeout_ms=10')).status).to.equal(404);
      const bad = await daemon.request('GET', '/v1/approvals/nope/wait?timeout_ms=soon');
      expect(bad.status).to.equal(400);
      expect((bad.json as { error: { where: string } }).error.where).to.equal('query.timeout_ms');
    });
  });

  describe('projections and health', () => {
    it('serves each projection with its position and caught-up flag', async () => {
      await startSession(daemon, 's1');
      await preToolCall(daemon, 's1', 'ls');
      for (const name of ['pending-approvals', 'grants', 'would-block-report', 'session-timeline']) {
        const reply = await daemon.request('GET', `/v1/projections/${name}`);
        expect(reply.status, name).to.equal(200);
        expect(reply.json, name).to.include.keys(['name', 'position', 'caughtUp', 'state']);
        expect((reply.json as Json)['name']).to.equal(name);
      }
    });

    it('serves one session\'s timeline with ?session=', async () => {
      await startSession(daemon, 's1');
      await startSession(daemon, 's2');
      await preToolCall(daemon, 's1', 'ls');
      const head = await daemon.gate.ledger.headPosition();
      await daemon.gate.projections.timeline.reached(head);
      const json = (await daemon.request('GET', '/v1/projections/session-timeline?session=s1')).json as { state: { sessionId: string; entries: { type: string }[] } };
      expect(json.state.sessionId).to.equal('s1');
      expect(json.state.entries.map((e) => e.type)).to.include.members(['UserMessageReceived', 'ToolCallDecided']);
      const none = (await daemon.request('GET', '/v1/projections/session-timeline?session=zz')).json as { state: { entries: unknown[] } };
      expect(none.state.entries).to.deep.equal([]);
    });

    it('answers 404 naming the known projections for an unknown name', async () => {
      const reply = await daemon.request('GET', '/v1/projections/everything');
      expect(reply.status).to.equal(404);
      expect((reply.json as { error: { message: string } }).error.message).to.include('pending-approvals');
    });

    it('reports health with the ledger head and the version', async () => {
      await startSession(daemon, 's1');
      const json = (await daemon.request('GET', '/v1/health')).json as Json;
      expect(json).to.deep.equal({ ok: true, head: await daemon.gate.ledger.headPosition(), version: '9.9.9-test' });
    });
  });
});
