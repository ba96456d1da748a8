/** Per session, what happened in order: messages, decisions, questions, answers, grants (newest last, capped). */
import type { Projection } from './projection.ts';
import { ownEntry } from '../domain/encoding/ownEntry.ts';

export interface TimelineEntry {
  readonly position: number;
  readonly at: string;
  readonly type: string;
  /** One line for people: the tool and verdict, the answer, the grant. */
  readonly summary: string;
  readonly verdict?: string;
}

export interface SessionTimelines {
  readonly sessions: Readonly<Record<string, readonly TimelineEntry[]>>;
}

const perSessionCap = 1000;

export const sessionTimeline: Projection<SessionTimelines> = {
  name: 'session-timeline',
  version: 1,
  initial: () => ({ sessions: {} }),
  evolve: (state, { event, position }) => {
    const data = event.data as { sessionId?: unknown; at?: unknown };
    if (typeof data.sessionId !== 'string') return state;
    const entry = toEntry(position, String(data.at ?? ''), event);
    const previous = ownEntry(state.sessions, data.sessionId) ?? [];
    const entries = previous.length >= perSessionCap ? [...previous.slice(1), entry] : [...previous, entry];
    return { sessions: { ...state.sessions, [data.sessionId]: entries } };
  },
};

const toEntry = (position: number, at: string, event: Parameters<typeof sessionTimeline.evolve>[1]['event']): TimelineEntry => {
  switch (event.type) {
    case 'ToolCallDecided':
      return { position, at, type: event.type, verdict: event.data.verdict,
        summary: `${event.data.tool}: ${event.data.verdict} by ${event.data.layer}${event.data.reasons.length ? ` (${event.data.reasons.join(', ')})` : ''}` };
    case 'OutputChecked':
      return { position, at, type: event.type, verdict: event.data.verdict, summary: `${event.data.channel} (${event.data.length} chars): ${event.data.verdict}` };
    case 'ApprovalRequested':
      return { position, at, type: event.type, summary: `asked a human about ${event.data.summary}` };
    case 'ApprovalAnswered':
      return { position, at, type: event.type, summary: `human answered ${event.data.answer}` };
    case 'GrantIssued':
      return { position, at, type: event.type, summary: `${event.data.scope} grant for ${event.data.summary}` };
    case 'UserMessageReceived':
      return { position, at, type: event.type, summary: `user message (${event.data.length} chars)` };
    default:
      return { position, at, type: event.type, summary: event.type };
  }
};
