/** Reads `GET /v1/stream` into an array, with waits on what has arrived. */
import { openEventStream, type EventStreamHandle, type SseMessage } from '../../../support/httpClient.ts';
import { eventually } from './daemonFixture.ts';

export interface Collected {
  readonly messages: SseMessage[];
  readonly comments: string[];
  readonly handle: EventStreamHandle;
  /** Recorded events only (not caught-up), as parsed data. */
  events(): { id: number; event: string; data: { position: number; stream: string; type: string; recordedAt: string; data: Record<string, unknown> } }[];
  waitFor(check: (c: Collected) => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export const collectStream = async (socketPath: string, path = '/v1/stream', lastEventId?: number | string): Promise<Collected> => {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => { opened = resolve; });
  const handle = openEventStream({ socketPath }, path, {
    ...(lastEventId === undefined ? {} : { lastEventId }),
    onMessage: (m) => messages.push(m),
    onComment: (c) => comments.push(c),
    onOpen: () => opened(),
  });
  handle.done.catch(() => undefined);
  await open;
  const collected: Collected = {
    messages, comments, handle,
    events: () => messages.filter((m) => m.event !== 'caught-up').map((m) => ({ id: Number(m.id), event: m.event, data: JSON.parse(m.data) })),
    waitFor: async (check, ms = 3000) => {
      await eventually(() => { if (!check(collected)) throw new Error(`stream condition not met; got ${messages.map((m) => `${m.id}:${m.event}`).join(', ')}`); }, ms);
    },
    close: async () => { handle.close(); await handle.done.catch(() => undefined); },
  };
  return collected;
};

export const caughtUp = (c: Collected): boolean => c.messages.some((m) => m.event === 'caught-up');
