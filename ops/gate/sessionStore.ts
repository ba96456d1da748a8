/**
 * Runs session commands: load the session's state (cached, folded from its stream), decide, append with the
 * revision the decision was made on. If another writer got there first the ledger refuses the append; the
 * state is re-read and the decision made again, so two parallel calls can never both use one grant.
 */
import { NO_STREAM, isWrongExpectedRevision, type Ledger, type RecordedEvent } from '../../adapters/ledger/port.ts';
import type { TollgateEvent } from '../../domain/events/catalogue.ts';
import { decodeEvent, encodeEvent } from '../../domain/events/codec.ts';
import { sessionCommandSchema, type ProposeToolCall, type SessionCommand } from '../../domain/session/commands.ts';
import { decide } from '../../domain/session/decide.ts';
import { evolve } from '../../domain/session/evolve.ts';
import { initialState, type SessionState } from '../../domain/session/sessionState.ts';
import { recordCommand, type RecordedFacts } from '../../domain/session/recordedCommand.ts';
import { KeyedLock } from './keyedLock.ts';
import { deepFrozen } from '../../domain/encoding/deepFrozen.ts';

export const sessionStream = (sessionId: string): string => `session-${sessionId}`;

interface Loaded {
  readonly state: SessionState;
  /** Revision of the stream's last event, or -1 when the stream does not exist. */
  readonly revision: number;
  /** The protection facts this session's stream holds in full, as this process recorded them (recordedCommand.ts). */
  readonly facts?: RecordedFacts | null;
}

export interface Executed {
  readonly command: SessionCommand;
  readonly events: readonly TollgateEvent[];
  /** Global position of the last appended event (0 when nothing was appended). */
  readonly position: number;
  readonly state: SessionState;
}

const maxAttempts = 5;
/** Sessions kept folded in memory; older ones are re-read from the ledger when they come back. */
const cachedSessions = 10_000;

export class SessionStore {
  private readonly cache = new Map<string, Loaded>();
  private readonly lock = new KeyedLock();

  constructor(private readonly ledger: Ledger, private readonly newId: () => string, private readonly writer = 'tollgate') {}

  /** The session's current state (from cache, or folded from the ledger). */
  async state(sessionId: string): Promise<SessionState> {
    return (await this.load(sessionId)).state;
  }

  /**
   * Builds the command from the current state (so ids and lookups can depend on it), decides and appends.
   * Serialised per session in this process; optimistic concurrency across processes.
   */
  execute(sessionId: string, build: (state: SessionState) => SessionCommand | Promise<SessionCommand>): Promise<Executed> {
    return this.lock.run(sessionId, async () => {
      for (let attempt = 1; ; attempt++) {
        const loaded = await this.load(sessionId);
        const command = parseCommand(await build(loaded.state));
        const events = decide(command, loaded.state);
        if (events.length === 0) return { command, events, position: 0, state: loaded.state };
        const commandId = this.newId();
        const { record, held } = recordCommand(command, commandId, loaded.facts ?? null);
        const encoded = events.map((e, i) => encodeEvent(e, i === 0 ? { commandId, writer: this.writer, ...record } : { commandId }));
        try {
          const result = await this.ledger.append(sessionStream(sessionId), encoded, {
            expected: loaded.revision < 0 ? NO_STREAM : loaded.revision,
          });
          const state = events.reduce(evolve, loaded.state);
          this.cache.set(sessionId, { state, revision: result.nextExpectedRevision, facts: held });
          return { command, events, position: result.position, state };
        } catch (error) {
          this.cache.delete(sessionId);
          if (!isWrongExpectedRevision(error) || attempt >= maxAttempts) throw error;
        }
      }
    });
  }

  /** Forget cached states (after a restart or when another process may have written). */
  clear(): void {
    this.cache.clear();
  }

  private async load(sessionId: string): Promise<Loaded> {
    const cached = this.cache.get(sessionId);
    if (cached) return cached;
    const recorded = await this.ledger.readStream(sessionStream(sessionId));
    const loaded = foldRecorded(recorded);
    this.cache.set(sessionId, loaded);
    if (this.cache.size > cachedSessions) this.cache.delete(this.cache.keys().next().value as string);
    return loaded;
  }
}

/**
 * Commands are validated like events: a malformed one is an internal error, so the caller fails closed. The
 * protection facts are one frozen object per daemon run: checked in full the first time, after which every
 * command carries the same checked copy (so the session records them once: recordedCommand.ts).
 */
const checkedFacts = new WeakMap<object, NonNullable<ProposeToolCall['data']['protection']>>();
const parseCommand = (built: SessionCommand): SessionCommand => {
  const facts = built.type === 'ProposeToolCall' ? built.data.protection : undefined;
  if (built.type !== 'ProposeToolCall' || facts == null) return sessionCommandSchema.parse(built) as SessionCommand;
  const checked = checkedFacts.get(facts);
  if (checked === undefined) {
    const parsed = sessionCommandSchema.parse(built) as ProposeToolCall;
    if (Object.isFrozen(facts) && parsed.data.protection != null) checkedFacts.set(facts, deepFrozen(parsed.data.protection));
    return { ...parsed, data: { ...parsed.data, protection: checkedFacts.get(facts) ?? parsed.data.protection } };
  }
  const { protection: _checked, ...rest } = built.data;
  const parsed = sessionCommandSchema.parse({ ...built, data: rest }) as ProposeToolCall;
  return { ...parsed, data: { ...parsed.data, protection: checked } };
};

const foldRecorded = (recorded: readonly RecordedEvent[]): Loaded => {
  let state = initialState();
  for (const record of recorded) state = evolve(state, decodeEvent(record));
  const last = recorded[recorded.length - 1];
  return { state, revision: last === undefined ? -1 : last.revision };
};
