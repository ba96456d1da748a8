import { expect } from 'chai';
import { heldReplyNotice } from '../../../ops/gate/verdicts.ts';
import { askingCommand, preToolCall, startDaemon, startSession, type Daemon } from './support/daemonFixture.ts';

type Reply = Record<string, unknown>;

describe('Hermes hooks over the socket', () => {
  let daemon: Daemon;
  beforeEach(async () => { daemon = await startDaemon(); });
  afterEach(async () => { await daemon.stop(); });

  describe('pre_llm_call', () => {
    it('records the user message and answers {} (no extra context)', async () => {
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_llm_call',
        { session_id: 's1', user_message: 'Clean the build folder.', sender_id: 42, platform: 'telegram', turn_id: 't1', conversation_history: [] });
      expect(reply.status).to.equal(200);
      expect(reply.json).to.deep.equal({});
      const [started, received] = await daemon.recorded('SessionStarted', 'UserMessageReceived');
      expect(started!.data).to.deep.include({ sessionId: 's1', platform: 'telegram', parentSessionId: null });
      expect(received!.data).to.deep.include({ sessionId: 's1', senderId: '42', length: 'Clean the build folder.'.length });
    });

    it('keeps the raw text out of the ledger (only its digest and length)', async () => {
      await startSession(daemon, 's1', 'my secret phrase');
      const all = JSON.stringify(await daemon.recorded());
      expect(all).not.to.include('my secret phrase');
    });
  });

  describe('pre_tool_call', () => {
    it('blocks "rm -rf /" after a user message, naming the hardline rule', async () => {
      await startSession(daemon, 's1');
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call',
        { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's1', tool_call_id: 'call-1', task_id: 'x' });
      expect(reply.status).to.equal(200);
      const json = reply.json as Reply;
      expect(json).to.include({ action: 'block', verdict: 'block', layer: 'hardline', call_id: 'call-1' });
      expect(json['message']).to.be.a('string').and.not.equal('');
      expect(json['reasons']).to.be.an('array').that.satisfies((r: string[]) => r.some((x) => x.startsWith('hardline:')));
    });

    it('allows a harmless command with action "allow" and the verdict details', async () => {
      await startSession(daemon, 's1');
      const reply = await preToolCall(daemon, 's1', 'ls -la', 'call-2');
      expect(reply.json).to.deep.include({ action: 'allow', verdict: 'allow', call_id: 'call-2', session_id: 's1' });
      expect(reply.json).to.have.property('layer');
      expect(reply.json).to.have.property('reasons');
    });

    it('turns an ask into Hermes\' approve directive whose rule_key is the approval id', async () => {
      await startSession(daemon, 's1');
      const json = (await preToolCall(daemon, 's1', askingCommand, 'call-3')).json as Reply;
      expect(json).to.include({ action: 'approve', verdict: 'ask', layer: 'approvals', call_id: 'call-3' });
      expect(json['rule_key']).to.be.a('string').and.equal(json['approval_id']);
      expect(json['expires_at']).to.be.a('string');
      const pending = (await daemon.request('GET', '/v1/approvals')).json as { approvals: { approvalId: string }[] };
      expect(pending.approvals.map((a) => a.approvalId)).to.deep.equal([json['approval_id']]);
    });

    it('answers an ask with a block for a Hermes without the approve directive (it would run the call); the id is for the runtime, not the model\'s message', async () => {
      await startSession(daemon, 's1');
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call',
        { session_id: 's1', tool_name: 'terminal', args: { command: askingCommand }, tool_call_id: 'old-1', approve_directive: false });
      const json = reply.json as Reply;
      expect(json).to.include({ action: 'block', verdict: 'ask', layer: 'approvals' });
      expect(json).to.not.have.property('rule_key');
      expect(json['approval_id']).to.be.a('string');
      expect(json['message']).to.include('A human has been asked').and.not.include(json['approval_id'] as string).and.not.include('tollgate approve');
      const [requested] = await daemon.recorded('ApprovalRequested');
      expect(requested?.data).to.deep.include({ resumption: 'retry', approvalId: json['approval_id'] });
    });

    it('blocks a call in a session the gate never saw start', async () => {
      const json = (await preToolCall(daemon, 'never-started', 'ls')).json as Reply;
      expect(json).to.include({ action: 'block', layer: 'session' });
    });

    it('links a subagent\'s first call to its parent session', async () => {
      await startSession(daemon, 'parent');
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call',
        { session_id: 'child', parent_session_id: 'parent', tool_name: 'terminal', args: { command: 'ls' }, tool_call_id: 'c1' });
      expect(reply.json).to.include({ action: 'allow' });
      const started = (await daemon.recorded('SessionStarted')).find((e) => (e.data as { sessionId: string }).sessionId === 'child');
      expect(started?.data).to.deep.include({ parentSessionId: 'parent' });
    });

    it('accepts keys it does not know (newer Hermes versions add some)', async () => {
      await startSession(daemon, 's1');
      const reply = await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call',
        { session_id: 's1', tool_name: 'read_file', args: { path: 'README.md' }, tool_call_id: 'c1', brand_new_kwarg: { x: 1 }, turn_id: 3 });
      expect(reply.status).to.equal(200);
      expect(reply.json).to.include({ action: 'allow' });
    });
  });

  describe('transform_llm_output', () => {
    it('answers response_text null when the reply may leave as it is', async () => {
      await startSession(daemon, 's1');
      const reply = await daemon.request('POST', '/v1/hooks/hermes/transform_llm_output', { session_id: 's1', response_text: 'Done.', model: 'm', platform: 'cli' });
      expect(reply.status).to.equal(200);
      expect(reply.json).to.include({ response_text: null, verdict: 'allow' });
      expect((await daemon.recorded('OutputChecked')).length).to.equal(1);
    });

    it('replaces the reply of a session the gate does not know with the held-reply notice', async () => {
      const reply = await daemon.request('POST', '/v1/hooks/hermes/transform_llm_output', { session_id: 'unknown', response_text: 'Done.' });
      const json = reply.json as Reply;
      if (json['verdict'] !== 'allow') expect(json['response_text']).to.equal(heldReplyNotice);
      else expect(json['response_text']).to.equal(null);
    });
  });

  describe('session and result hooks', () => {
    it('post_tool_call records the result of a call', async () => {
      await startSession(daemon, 's1');
      await preToolCall(daemon, 's1', 'ls', 'c9');
      const reply = await daemon.request('POST', '/v1/hooks/hermes/post_tool_call',
        { session_id: 's1', tool_name: 'terminal', tool_call_id: 'c9', args: { command: 'ls' }, result: 'a b c', status: 'ok', duration_ms: 12 });
      expect(reply.status).to.equal(200);
      expect(reply.json).to.deep.equal({});
      const [completed] = await daemon.recorded('ToolCallCompleted');
      expect(completed?.data).to.deep.include({ sessionId: 's1', callId: 'c9', tool: 'terminal', status: 'ok', durationMs: 12 });
      expect(JSON.stringify(completed)).not.to.include('a b c');
    });

    it('on_session_end ends the session, and later calls in it are blocked', async () => {
      await startSession(daemon, 's1');
      expect((await daemon.request('POST', '/v1/hooks/hermes/on_session_end', { session_id: 's1' })).json).to.deep.equal({});
      expect((await daemon.recorded('SessionEnded')).length).to.equal(1);
      expect((await preToolCall(daemon, 's1', 'ls')).json).to.include({ action: 'block', layer: 'session' });
    });

    for (const hook of ['on_session_start', 'subagent_start', 'subagent_stop'])
      it(`${hook} is acknowledged with {}`, async () => {
        const reply = await daemon.request('POST', `/v1/hooks/hermes/${hook}`, { session_id: 's1', child_session_id: 'c' });
        expect(reply.status).to.equal(200);
        expect(reply.json).to.deep.equal({});
      });

    it('on_session_start opens the session without recording any words', async () => {
      await daemon.request('POST', '/v1/hooks/hermes/on_session_start', { session_id: 's2', platform: 'cli', model: 'm' });
      expect(await daemon.recorded('UserMessageReceived')).to.deep.equal([]);
      expect((await preToolCall(daemon, 's2', 'ls')).json).to.include({ action: 'allow' });
      expect((await preToolCall(daemon, 's2', 'rm -rf /')).json).to.include({ action: 'block', layer: 'hardline' });
    });

    it('a turn Hermes wrote itself opens the session but records no words', async () => {
      await daemon.request('POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'cron-1', user_message: 'Cronjob Response: nightly backup', platform: 'cron' });
      expect(await daemon.recorded('UserMessageReceived')).to.deep.equal([]);
      expect((await daemon.recorded('SessionStarted'))[0]?.data).to.deep.include({ sessionId: 'cron-1', platform: 'cron' });
    });

    it('subagent_start links the child to a known parent; subagent_stop ends the child', async () => {
      await startSession(daemon, 'parent');
      await daemon.request('POST', '/v1/hooks/hermes/subagent_start', { parent_session_id: 'parent', child_session_id: 'kid', child_role: 'leaf', child_goal: 'tidy' });
      const started = (await daemon.recorded('SessionStarted')).map((e) => e.data);
      expect(started).to.deep.include({ sessionId: 'kid', platform: 'subagent', parentSessionId: 'parent', owner: null, at: (started[1] as { at: string }).at });
      expect((await preToolCall(daemon, 'kid', 'ls')).json).to.include({ action: 'allow' });
      await daemon.request('POST', '/v1/hooks/hermes/subagent_stop', { parent_session_id: 'parent', child_session_id: 'kid', child_status: 'completed' });
      expect((await preToolCall(daemon, 'kid', 'ls')).json).to.include({ action: 'block', layer: 'session' });
    });

    it('subagent_start of an unknown parent gives the child no authority', async () => {
      await daemon.request('POST', '/v1/hooks/hermes/subagent_start', { parent_session_id: 'ghost', child_session_id: 'kid' });
      expect((await preToolCall(daemon, 'kid', 'ls')).json).to.include({ action: 'block', layer: 'session' });
    });
  });
});
