import { expect } from 'chai';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { decide } from '../../../domain/session/decide.ts';
import { replaySession, type ReplayInput } from '../../../domain/session/replaySession.ts';
import type { Gate } from '../../../ops/gate/gate.ts';
import { openTestGate } from '../../support/openTestGate.ts';

const lines = ['ls -la', 'rm -r build/', 'rm -rf /', 'git reset --hard', 'npm test', 'ls $(', 'systemctl restart nginx'];

const recordedSession = async (gate: Gate, sessionId: string): Promise<ReplayInput[]> =>
  (await gate.ledger.readStream(`session-${sessionId}`)).map((r) => ({ position: r.position, event: decodeEvent(r), metadata: r.metadata }));

describe('replay', () => {
  it('re-derives every recorded decision exactly, for any sequence of calls and answers', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof(
        fc.record({ kind: fc.constant('call' as const), line: fc.constantFrom(...lines), retry: fc.boolean() }),
        fc.record({ kind: fc.constant('answer' as const), answer: fc.constantFrom('once', 'session', 'always', 'deny') as fc.Arbitrary<'once' | 'session' | 'always' | 'deny'> }),
        fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 90 }) }),
      ), { minLength: 1, maxLength: 12 }),
      async (steps) => {
        let now = Date.parse('2026-03-01T10:00:00Z');
        const gate = await openTestGate({ clock: () => now });
        try {
          await gate.userMessage({ sessionId: 's', text: 'work' });
          let lastAsk: string | null = null;
          for (const step of steps) {
            if (step.kind === 'call') {
              const v = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: step.line }, resumption: step.retry ? 'retry' : 'held' });
              if (v.approvalId) lastAsk = v.approvalId;
            } else if (step.kind === 'answer' && lastAsk) {
              await gate.answer(lastAsk, step.answer);
            } else if (step.kind === 'advance') {
              now += step.seconds * 1000;
              await gate.expireDue();
            }
          }
          const report = replaySession(await recordedSession(gate, 's'));
          expect(report.differences).to.deep.equal([]);
          expect(report.commands).to.be.greaterThan(steps.filter((s) => s.kind === 'call').length);
        } finally {
          await gate.close();
        }
      },
    ), { numRuns: 40 });
  });

  it('reports the position of a decision that no longer follows from its command (what-if)', async () => {
    const gate = await openTestGate();
    try {
      await gate.userMessage({ sessionId: 's', text: 'work' });
      await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm -r build/' } });
      const records = await recordedSession(gate, 's');
      const yolo: typeof decide = (command, state) => decide(command.type === 'ProposeToolCall'
        ? { ...command, data: { ...command.data, settings: { approvals: { ...command.data.settings.approvals, yolo: true } } } }
        : command, state);
      const report = replaySession(records, yolo);
      expect(report.differences).to.have.length(1);
      expect(report.differences[0]).to.include({ commandType: 'ProposeToolCall', position: records[2]!.position });
      expect(report.differences[0]!.problem).to.match(/recorded \[ToolCallDecided, ApprovalRequested\] but replay gives \[ToolCallDecided\]/);
    } finally {
      await gate.close();
    }
  });

  describe('protection facts recorded once per session', () => {
    it('keeps the facts in full on the first call only, and replay puts them back for every later call', async () => {
      const gate = await openTestGate();
      try {
        await gate.userMessage({ sessionId: 's', text: 'work' });
        for (const command of ['ls -la', 'rm -r build/', 'rm data/ledger.db']) await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command } });
        const records = await recordedSession(gate, 's');
        const calls = records.filter((r) => (r.metadata['command'] as { type?: string } | undefined)?.type === 'ProposeToolCall');
        expect(calls).to.have.length(3);
        const [first, ...later] = calls;
        expect((first!.metadata['command'] as { data: object }).data).to.have.property('protection');
        for (const call of later) {
          expect((call.metadata['command'] as { data: object }).data).not.to.have.property('protection');
          expect(call.metadata['protectionFrom']).to.equal(first!.metadata['commandId']);
        }
        expect(replaySession(records).differences).to.deep.equal([]);
      } finally {
        await gate.close();
      }
    });

    it('reports a call whose facts point at a command the session never recorded, instead of deciding without them', async () => {
      const gate = await openTestGate();
      try {
        await gate.userMessage({ sessionId: 's', text: 'work' });
        await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'ls' } });
        await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'rm data/ledger.db' } });
        const records = await recordedSession(gate, 's');
        const cut = records.filter((r) => !(r.metadata['protectionFrom'] === undefined && (r.metadata['command'] as { type?: string } | undefined)?.type === 'ProposeToolCall'));
        const report = replaySession(cut);
        expect(report.differences).to.have.length(1);
        expect(report.differences[0]!.problem).to.match(/protection facts from command .* which this session did not record/);
      } finally {
        await gate.close();
      }
    });

    it('decides the later calls with the same facts: the floor still blocks a write to the ledger on the third call', async () => {
      const gate = await openTestGate();
      try {
        await gate.userMessage({ sessionId: 's', text: 'work' });
        await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'ls' } });
        await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: 'pwd' } });
        const third = await gate.toolCall({ sessionId: 's', tool: 'terminal', args: { command: `rm ${resolve(gate.config.data.dir)}/ledger.db` } });
        expect(third.verdict).to.equal('block');
        expect(third.reasons).to.include('self-protection:write-protected-path');
      } finally {
        await gate.close();
      }
    });
  });
});
