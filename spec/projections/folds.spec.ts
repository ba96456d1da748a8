import { expect } from 'chai';
import { event, type TollgateEvent } from '../../domain/events/catalogue.ts';
import { allowlistKey, grants } from '../../projections/grants.ts';
import { pendingApprovals } from '../../projections/pendingApprovals.ts';
import type { Projection } from '../../projections/projection.ts';
import { sessionTimeline } from '../../projections/sessionTimeline.ts';
import { wouldBlockReport } from '../../projections/wouldBlockReport.ts';

const at = '2026-03-01T10:00:00.000Z';
const fold = <S>(projection: Projection<S>, events: readonly TollgateEvent[]): S =>
  events.reduce((state, e, i) => projection.evolve(state, { position: i + 1, stream: 'session-s', recordedAt: at, event: e }), projection.initial());

const requested = event('ApprovalRequested', { sessionId: 's', approvalId: 'a1', callId: 'c1', tool: 'terminal', fingerprint: 'f', summary: 'rm -r build/',
  hits: [{ ruleId: 'recursive-delete', reason: 'r', command: 'rm -r build/' }], resumption: 'held', expiresAt: at, at });
const issued = (scope: 'once' | 'session' | 'always', grantId = 'g1') => event('GrantIssued', { sessionId: 's', grantId, approvalId: 'a1', scope, tool: 'terminal', fingerprint: 'f', summary: 'rm -r build/', at });

describe('projection folds', () => {
  it('pending approvals: open on request, closed on answer or expiry', () => {
    expect(fold(pendingApprovals, [requested])).to.have.keys('a1');
    expect(fold(pendingApprovals, [requested, event('ApprovalAnswered', { sessionId: 's', approvalId: 'a1', callId: 'c1', answer: 'deny', callAllowed: false, answeredBy: null, at })])).to.deep.equal({});
    expect(fold(pendingApprovals, [requested, event('ApprovalExpired', { sessionId: 's', approvalId: 'a1', callId: 'c1', at })])).to.deep.equal({});
  });

  it('grants: always grants join the allowlist until revoked; session grants do not', () => {
    expect(fold(grants, [issued('session')]).allowlist).to.deep.equal({});
    const always = fold(grants, [issued('always')]);
    expect(always.allowlist).to.deep.equal({ [allowlistKey('terminal', 'f')]: 'g1' });
    const revoked = fold(grants, [issued('always'), event('AllowlistEntryRevoked', { tool: 'terminal', fingerprint: 'f', revokedBy: 'ops', at })]);
    expect(revoked.allowlist).to.deep.equal({});
  });

  it('grants: a consumed once grant is marked used', () => {
    const state = fold(grants, [issued('once'), event('GrantConsumed', { sessionId: 's', grantId: 'g1', callId: 'c2', at })]);
    expect(state.grants['g1']).to.include({ consumed: true });
  });

  it('would-block report: counts observe-mode objections by layer and reason, and ignores enforced ones', () => {
    const decided = (wouldBlock: { layer: 'leak'; reasons: string[] }[]) => event('ToolCallDecided', {
      sessionId: 's', callId: 'c', tool: 't', args: {}, fingerprint: 'f', shell: null, verdict: 'allow', layer: 'gate', reasons: [], message: '', mode: 'enforce',
      wouldBlock: wouldBlock.map((w) => ({ ...w, verdict: 'block' as const, message: 'm', mode: 'observe' as const })), approvalId: null, grantId: null, at });
    const report = fold(wouldBlockReport, [decided([{ layer: 'leak', reasons: ['leak:fingerprint'] }]), decided([]), decided([{ layer: 'leak', reasons: ['leak:fingerprint'] }])]);
    expect(report.total).to.equal(2);
    expect(report.byReason).to.deep.equal({ 'leak/leak:fingerprint': 2 });
  });

  it('session timeline: one line per event of the session, in order', () => {
    const timeline = fold(sessionTimeline, [requested, issued('session')]);
    expect(timeline.sessions['s']?.map((e) => e.type)).to.deep.equal(['ApprovalRequested', 'GrantIssued']);
    expect(timeline.sessions['s']?.[1]?.summary).to.equal('session grant for rm -r build/');
  });
});
