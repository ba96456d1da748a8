/** `GET /v1/projections/:name`: the in-memory read models, with the ledger position each reflects. */
import { HttpProblem } from '../httpProblem.ts';
import type { DaemonGate } from '../gatePort.ts';
import { ok, type Route } from '../route.ts';

interface Readable { view(): { readonly state: unknown; readonly position: number; readonly caughtUp: boolean } }

const byName: Readonly<Record<string, (gate: DaemonGate) => Readable>> = {
  'pending-approvals': (gate) => gate.projections.pendingApprovals,
  grants: (gate) => gate.projections.grants,
  'would-block-report': (gate) => gate.projections.wouldBlock,
  'session-timeline': (gate) => gate.projections.timeline,
};

export const projectionNames = Object.keys(byName);

export const projectionRoute: Route = {
  method: 'GET', pattern: /^\/v1\/projections\/([^/]+)$/, endpoint: () => 'projections', kind: () => 'other',
  handle: async (ctx) => {
    const name = ctx.params[0] ?? '';
    const pick = Object.hasOwn(byName, name) ? byName[name] : undefined;
    if (pick === undefined)
      throw new HttpProblem(404, 'unknown-projection', `No projection is named "${name.slice(0, 100)}"; known: ${projectionNames.join(', ')}.`, 'path.name');
    const view = pick(ctx.gate).view();
    const session = ctx.query.get('session');
    if (name === 'session-timeline' && session !== null) {
      const sessions = (view.state as { sessions: Readonly<Record<string, unknown>> }).sessions;
      const entries = Object.hasOwn(sessions, session) ? sessions[session] : [];
      return ok({ name, position: view.position, caughtUp: view.caughtUp, state: { sessionId: session, entries } });
    }
    return ok({ name, position: view.position, caughtUp: view.caughtUp, state: view.state });
  },
};
