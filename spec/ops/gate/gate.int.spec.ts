import { expect } from 'chai';
import { openMemoryLedger } from '../../../adapters/ledger/memory/memoryLedger.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import type { Gate } from '../../../ops/gate/gate.ts';
import { openTestGate } from '../../support/openTestGate.ts';

describe('Gate (service over the real grammar and a memory ledger)', () => {
  let gate: Gate;
  afterEach(async () => { await gate?.close(); });

  it('blocks a hardline command and records the decision with its layer and reason', async () => {
    gate = await openTestGate();
    await gate.userMessage({ sessionId: 's', text: 'clean up' });
    const verdict = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'sudo rm -rf /' } });
    expect(verdict).to.include({ verdict: 'block', layer: 'hardline' });
    const recorded = (await gate.ledger.readStream('session-s')).map((r) => decodeEvent(r));
    const decided = recorded.find((e) => e.type === 'ToolCallDecided');
    expect(decided?.data).to.include({ verdict: 'block', layer: 'hardline', mode: 'enforce' });
  });

  it('keeps raw user text out of the ledger: the event has a digest and a reference only', async () => {
    gate = await openTestGate();
    await gate.userMessage({ sessionId: 's', text: 'my secret plan is to refactor' });
    const records = await gate.ledger.readStream('session-s');
    expect(JSON.stringify(records)).not.to.include('secret plan');
    const received = records.map((r) => decodeEvent(r)).find((e) => e.type === 'UserMessageReceived');
    expect(received?.data).to.include({ length: 'my secret plan is to refactor'.length });
  });

  it('answers a held question: once lets the call run and the waiting runtime hears "allowed"', async () => {
    gate = await openTestGate();
    await gate.userMessage({ sessionId: 's', text: 'clean' });
    const asked = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' } });
    expect(asked.verdict).to.equal('ask');
    const waiting = gate.waitForAnswer(asked.approvalId!, 5_000);
    const answered = await gate.answer(asked.approvalId!, 'once', 'alice');
    expect(answered).to.include({ outcome: 'allowed', answer: 'once', sessionId: 's' });
    expect(await waiting).to.include({ outcome: 'allowed' });
    expect(await gate.answer(asked.approvalId!, 'once')).to.include({ outcome: 'unknown' });
  });

  it('expires an unanswered question as deny with real timers', async () => {
    gate = await openTestGate({ config: { approvals: { timeout: '200ms' } }, expiryTimers: true });
    await gate.userMessage({ sessionId: 's', text: 'clean' });
    const asked = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' } });
    expect(await gate.waitForAnswer(asked.approvalId!, 5_000)).to.include({ outcome: 'expired' });
    expect(gate.projections.pendingApprovals.view().state).not.to.have.property(asked.approvalId!);
  });

  it('lets exactly one retrying call use a once grant when two race for it', async () => {
    gate = await openTestGate();
    await gate.userMessage({ sessionId: 's', text: 'clean' });
    const asked = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, resumption: 'retry' });
    await gate.answer(asked.approvalId!, 'once');
    const race = await Promise.all([1, 2, 3].map(() => gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, resumption: 'retry' })));
    expect(race.filter((v) => v.verdict === 'allow')).to.have.length(1);
    expect(race.filter((v) => v.verdict === 'ask')).to.have.length(2);
  });

  it('keeps a once grant exact under two gates writing one ledger (optimistic concurrency)', async () => {
    const ledger = openMemoryLedger();
    gate = await openTestGate({ ledger });
    const other = await openTestGate({ ledger });
    try {
      await gate.userMessage({ sessionId: 's', text: 'clean' });
      const asked = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, resumption: 'retry' });
      await gate.answer(asked.approvalId!, 'once');
      const call = (g: Gate) => g.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, resumption: 'retry' });
      const verdicts = await Promise.all([call(gate), call(other), call(gate), call(other)]);
      expect(verdicts.filter((v) => v.verdict === 'allow')).to.have.length(1);
    } finally {
      await other.close();
    }
  });

  it('fails closed when the ledger refuses the append: block, with the reason', async () => {
    const ledger = openMemoryLedger();
    gate = await openTestGate({ ledger });
    await gate.userMessage({ sessionId: 's', text: 'list' });
    const broken = Object.assign(Object.create(Object.getPrototypeOf(ledger) as object), ledger, {
      append: () => Promise.reject(new Error('disk full')),
    });
    const failing = await openTestGate({ ledger: broken });
    try {
      const verdict = await failing.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'ls' } });
      expect(verdict).to.include({ verdict: 'block' });
      expect(verdict.reasons).to.deep.equal(['gate:internal-error']);
      expect(verdict.message).to.include('disk full');
    } finally {
      await failing.close();
    }
  });

  it('holds a reply back for a session it never saw', async () => {
    gate = await openTestGate();
    const verdict = await gate.output({ sessionId: 'ghost', text: 'hello' });
    expect(verdict.verdict).to.equal('block');
    expect(verdict.replacement).to.be.a('string');
  });
});

describe('Gate: the same call asked twice (a plugin and a shell hook both guarding)', () => {
  let gate: Gate;
  afterEach(async () => { await gate?.close(); });

  it('answers the second ask with the first decision and does not spend a one-time grant twice', async () => {
    gate = await openTestGate();
    await gate.userMessage({ sessionId: 's', text: 'clean' });
    const asked = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, resumption: 'retry' });
    await gate.answer(asked.approvalId!, 'once');
    const first = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, callId: 'hermes-call-7', resumption: 'retry' });
    const again = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, callId: 'hermes-call-7', resumption: 'retry' });
    expect(first.verdict).to.equal('allow');
    expect(again).to.deep.include({ verdict: 'allow', position: 0 });
    expect(again.reasons).to.include('input:same-call-again');
    const consumed = (await gate.ledger.readStream('session-s')).filter((r) => r.type === 'GrantConsumed');
    expect(consumed).to.have.length(1);
  });

  it('lets the same held call through on the second ask once the human approved it', async () => {
    gate = await openTestGate();
    await gate.userMessage({ sessionId: 's', text: 'clean' });
    const asked = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, callId: 'c1' });
    expect((await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, callId: 'c1' })).verdict).to.equal('ask');
    await gate.answer(asked.approvalId!, 'once');
    expect((await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' }, callId: 'c1' })).verdict).to.equal('allow');
  });
});
