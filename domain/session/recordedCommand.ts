/**
 * How a session command is kept in its first event's metadata for replay. The protection facts (every protected
 * path, the Hermes homes, the port: over a kilobyte) are the same for every call a daemon decides, so a session
 * records them in full once and later commands name that command instead (`protectionFrom`). Replay puts them
 * back before deciding again; a reference to facts the session never recorded is a difference, not a guess.
 */
import type { SessionCommand } from './commands.ts';

/** The session's last command that carried the facts in full: its id and the facts object it carried. */
export interface RecordedFacts {
  readonly commandId: string;
  readonly facts: object;
}

export interface CommandRecord {
  /** The command as stored (facts left out when `protectionFrom` names where they are). */
  readonly command: unknown;
  readonly protectionFrom?: string;
}

const factsOf = (command: SessionCommand): object | undefined =>
  command.type === 'ProposeToolCall' ? command.data.protection ?? undefined : undefined;

/** The record for a command, and what the session holds in full after it. */
export const recordCommand = (command: SessionCommand, commandId: string, held: RecordedFacts | null): { record: CommandRecord; held: RecordedFacts | null } => {
  const facts = factsOf(command);
  if (facts === undefined || command.type !== 'ProposeToolCall') return { record: { command }, held };
  // The same object the session recorded in full: the daemon's facts have not changed since.
  if (held !== null && held.facts === facts) {
    const { protection: _left, ...data } = command.data;
    return { record: { command: { ...command, data }, protectionFrom: held.commandId }, held };
  }
  return { record: { command }, held: { commandId, facts } };
};

/** Replay's side: the stored command with its facts put back, or the reason it cannot be. */
export const restoreCommand = (
  metadata: Readonly<Record<string, unknown>>,
  factsById: ReadonlyMap<string, unknown>,
): { ok: true; command: unknown } | { ok: false; problem: string } => {
  const from = metadata['protectionFrom'];
  const command = metadata['command'];
  if (from === undefined) return { ok: true, command };
  if (typeof from !== 'string' || !factsById.has(from))
    return { ok: false, problem: `the recorded command takes its protection facts from command ${String(from)}, which this session did not record` };
  if (typeof command !== 'object' || command === null || typeof (command as { data?: unknown }).data !== 'object')
    return { ok: false, problem: 'the recorded command is missing or does not validate' };
  const stored = command as { data: Record<string, unknown> };
  if ('protection' in stored.data) return { ok: false, problem: 'the recorded command carries protection facts and a reference to others' };
  return { ok: true, command: { ...stored, data: { ...stored.data, protection: factsById.get(from) } } };
};
