/**
 * Replay for auditors: every recorded command of a session goes through `decide` again, on the state folded
 * from the events before it, and must produce exactly the recorded events. Any difference is reported with the
 * position where it happened. A `decideWith` other than the real one turns this into a what-if replay.
 */
import { canonicalJson } from '../encoding/canonicalJson.ts';
import type { TollgateEvent } from '../events/catalogue.ts';
import { sessionCommandSchema, type SessionCommand } from './commands.ts';
import { decide as realDecide } from './decide.ts';
import { restoreCommand } from './recordedCommand.ts';
import { evolve } from './evolve.ts';
import { initialState, type SessionState } from './sessionState.ts';

/** A recorded session event with the metadata the session store wrote. */
export interface ReplayInput {
  readonly position: number;
  readonly event: TollgateEvent;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export interface ReplayDifference {
  readonly position: number;
  readonly commandType: string;
  readonly problem: string;
  readonly recorded: readonly TollgateEvent[];
  readonly replayed: readonly TollgateEvent[];
}

export interface ReplayReport {
  readonly commands: number;
  readonly events: number;
  readonly differences: readonly ReplayDifference[];
}

export const replaySession = (
  records: readonly ReplayInput[],
  decideWith: (command: SessionCommand, state: SessionState) => TollgateEvent[] = realDecide,
): ReplayReport => {
  const differences: ReplayDifference[] = [];
  let state = initialState();
  let commands = 0;
  const factsById = new Map<string, unknown>();
  for (const group of groupByCommand(records)) {
    const first = group[0]!;
    const recorded = group.map((r) => r.event);
    const restored = restoreCommand(first.metadata, factsById);
    const parsed = restored.ok ? sessionCommandSchema.safeParse(restored.command) : null;
    if (!restored.ok) {
      differences.push({ position: first.position, commandType: 'unknown', problem: restored.problem, recorded, replayed: [] });
    } else if (parsed === null || !parsed.success) {
      differences.push({ position: first.position, commandType: 'unknown', problem: 'the recorded command is missing or does not validate', recorded, replayed: [] });
    } else {
      commands++;
      const commandId = first.metadata['commandId'];
      if (parsed.data.type === 'ProposeToolCall' && parsed.data.data.protection !== undefined && first.metadata['protectionFrom'] === undefined && typeof commandId === 'string')
        factsById.set(commandId, parsed.data.data.protection);
      const replayed = decideWith(parsed.data, state);
      if (canonicalJson(replayed) !== canonicalJson(recorded))
        differences.push({ position: first.position, commandType: parsed.data.type, problem: describe(recorded, replayed), recorded, replayed });
    }
    state = recorded.reduce(evolve, state);
  }
  return { commands, events: records.length, differences };
};

/** Events appended by one command share its `commandId`; the first of them carries the command itself. */
const groupByCommand = (records: readonly ReplayInput[]): ReplayInput[][] => {
  const groups: ReplayInput[][] = [];
  let current: ReplayInput[] = [];
  let currentId: unknown = Symbol('none');
  for (const record of records) {
    const id = record.metadata['commandId'];
    if (id !== currentId || id === undefined) {
      if (current.length) groups.push(current);
      current = [];
      currentId = id;
    }
    current.push(record);
  }
  if (current.length) groups.push(current);
  return groups;
};

const describe = (recorded: readonly TollgateEvent[], replayed: readonly TollgateEvent[]): string => {
  const recordedTypes = recorded.map((e) => e.type).join(', ');
  const replayedTypes = replayed.map((e) => e.type).join(', ');
  if (recordedTypes !== replayedTypes) return `recorded [${recordedTypes}] but replay gives [${replayedTypes}]`;
  const verdictOf = (events: readonly TollgateEvent[]) => events.map((e) => ('verdict' in e.data ? `${e.type}:${String(e.data.verdict)}` : e.type)).join(', ');
  const a = verdictOf(recorded);
  const b = verdictOf(replayed);
  return a !== b ? `recorded ${a} but replay gives ${b}` : 'same event types and verdicts, different fields';
};
