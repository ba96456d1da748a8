/** `GET /v1/health`: whether the ledger answers and every projection is running. */
import { ok, type Route } from '../route.ts';

export const healthRoute: Route = {
  method: 'GET', pattern: /^\/v1\/health$/, endpoint: () => 'health', kind: () => 'other',
  handle: async (ctx) => {
    const { version } = ctx.settings;
    const failed = Object.values(ctx.gate.projections).flatMap((p) => {
      const failure = p.failure();
      return failure === null ? [] : [`projection ${p.name}: ${failure.message}`];
    });
    let head: number | null = null;
    try { head = await ctx.gate.ledger.headPosition(); } catch (error) { failed.push(`ledger: ${(error as Error).message}`); }
    if (failed.length > 0) return { status: 503, body: { ok: false, head, version, problems: failed } };
    return ok({ ok: true, head, version });
  },
};
