/**
 * `GET /v1/stream`: recorded events as Server-Sent Events (`id:` = ledger position, `event:` = type, `data:` =
 * `{position, stream, type, recordedAt, data}`). Starts live at the head, or after `Last-Event-ID` / `?after=`:
 * history is read page by page, each page waiting for the client to drain, then a ledger subscription from the
 * last position read carries on live; one position cursor makes the seam free of gaps and duplicates.
 */
import type { IncomingMessage } from 'node:http';
import type { Subscription } from 'rxjs';
import type { RecordedEvent } from '../../ledger/port.ts';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { HttpProblem } from '../httpProblem.ts';
import type { Route } from '../route.ts';
import { sseComment, sseEvent, sseRetry } from '../sse/sseFormat.ts';
import { matchesStreamFilter, parseStreamFilter } from '../sse/streamFilter.ts';
import { SseWriter } from '../sse/sseWriter.ts';

const position = (text: string, where: string): number => {
  if (!/^\d{1,15}$/.test(text.trim())) throw new HttpProblem(400, 'invalid-query', `"${text.slice(0, 40)}" is not a ledger position (a whole number >= 0).`, where);
  return Number(text.trim());
};

/** Last-Event-ID (what a reconnecting EventSource sends) wins over `?after=` (which a reconnect repeats unchanged). */
export const resumePosition = (req: IncomingMessage, query: URLSearchParams): number | null => {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') return position(header, 'header.last-event-id');
  const after = query.get('after');
  return after === null ? null : position(after, 'query.after');
};

export const streamRoute: Route = {
  method: 'GET', pattern: /^\/v1\/stream$/, endpoint: () => 'stream', kind: () => 'other',
  handle: async (ctx) => {
    const { req, res, settings, gate: { ledger } } = ctx;
    const options = settings.stream;
    const filter = parseStreamFilter(ctx.query);
    const filtered = Object.values(filter).some((f) => f !== null);
    const ledgerFilter = filter.types ? { types: [...filter.types] } : undefined;
    let cursor = resumePosition(req, ctx.query) ?? await ledger.headPosition();

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive', 'x-accel-buffering': 'no',
    });
    let stopped = false;
    let subscription: Subscription | null = null;
    const writer = new SseWriter(res, options.maxQueuedBytes, (bytes) => {
      settings.log({ msg: 'stream client too slow; disconnected', queuedBytes: bytes, position: cursor });
      stop();
    });
    const heartbeat = setInterval(() => writer.write(sseComment('heartbeat')), options.heartbeatMs);
    heartbeat.unref();
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      subscription?.unsubscribe();
      release();
      writer.end();
    };
    const release = ctx.holdOpen(stop);
    res.on('close', stop);
    if (res.destroyed || req.socket.destroyed) { stop(); return { streamed: true }; }
    writer.write(sseRetry(options.retryMs));

    const deliver = (recorded: RecordedEvent): void => {
      if (recorded.position <= cursor) return;
      cursor = recorded.position;
      let event;
      try { event = decodeEvent(recorded); } catch (error) {
        if (!filtered) writer.write(sseEvent(recorded.position, 'undecodable', { position: recorded.position, type: recorded.type, problem: (error as Error).message }));
        return;
      }
      if (!matchesStreamFilter(filter, event)) return;
      writer.write(sseEvent(recorded.position, recorded.type,
        { position: recorded.position, stream: recorded.stream, type: recorded.type, recordedAt: recorded.recordedAt, data: event.data }));
    };
    let caughtUpSent = false;
    const caughtUp = (head: number): void => {
      if (caughtUpSent) return;
      caughtUpSent = true;
      cursor = Math.max(cursor, head);
      writer.write(sseEvent(cursor, 'caught-up', { position: cursor }));
    };
    const fail = (error: unknown): void => {
      writer.write(sseEvent(null, 'error', { message: `the event stream failed: ${error instanceof Error ? error.message : String(error)}` }));
      stop();
    };

    void (async () => {
      for (;;) {
        const page = await ledger.readAll({ fromPosition: cursor, maxCount: options.pageSize, ...(ledgerFilter ? { filter: ledgerFilter } : {}) });
        if (stopped) return;
        for (const recorded of page) {
          deliver(recorded);
          if (writer.isBlocked) await writer.drained();
          if (stopped) return;
        }
        if (page.length < options.pageSize) break;
      }
      subscription = ledger.subscribe({ fromPosition: cursor, ...(ledgerFilter ? { filter: ledgerFilter } : {}) }).subscribe({
        next: (m) => (m.kind === 'event' ? deliver(m.event) : caughtUp(m.position)),
        error: fail,
        complete: stop,
      });
      if (stopped) subscription.unsubscribe();
    })().catch(fail);
    return { streamed: true };
  },
};
