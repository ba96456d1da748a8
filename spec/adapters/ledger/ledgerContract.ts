/**
 * The one suite every ledger adapter passes (memory and sqlite now; postgres and kurrentdb later). Each adapter's
 * spec only says how to open a ledger, how to reopen it over the same storage, and how to tamper with that storage;
 * tests that need a hook the adapter lacks show as pending.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Observable } from 'rxjs';
import {
  ANY,
  LedgerInputError,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedRevisionError,
  isWrongExpectedRevision,
} from '../../../adapters/ledger/port.ts';
import type { ExpectedRevision, Ledger, LedgerMessage, NewEvent, RecordedEvent } from '../../../adapters/ledger/port.ts';
import { storedFields } from './tamperer.ts';
import type { Tamperer } from './tamperer.ts';

export interface OpenedLedger {
  readonly ledger: Ledger;
  /** Opens a new ledger over the same storage (call after closing `ledger`). */
  readonly reopen?: () => Promise<Ledger>;
  readonly tamper?: Tamperer;
}

const event = (type: string, data: unknown = {}, extra: Partial<NewEvent> = {}): NewEvent => ({ type, data, ...extra });

const isRejected = (result: PromiseSettledResult<unknown>): result is PromiseRejectedResult => result.status === 'rejected';
const isFulfilled = <T>(result: PromiseSettledResult<T>): result is PromiseFulfilledResult<T> => result.status === 'fulfilled';

const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
};

/** Records what a subscription emits, and waits until enough has arrived (a timeout fails with what did). */
interface Recorder {
  readonly messages: LedgerMessage[];
  until(done: (messages: LedgerMessage[]) => boolean, ms?: number): Promise<LedgerMessage[]>;
  stop(): void;
}

const record = (messages$: Observable<LedgerMessage>): Recorder => {
  const messages: LedgerMessage[] = [];
  const waiters = new Set<() => void>();
  let failure: unknown;
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const subscription = messages$.subscribe({
    next: (message) => {
      messages.push(message);
      wake();
    },
    error: (error: unknown) => {
      failure = error ?? new Error('subscription failed');
      wake();
    },
  });
  return {
    messages,
    until: (done, ms = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${eventsOf(messages).length} events and ${caughtUpMarks(messages).length} caught-up marks`));
        }, ms);
        const check = () => {
          if (failure === undefined && !done(messages)) return;
          clearTimeout(timer);
          waiters.delete(check);
          if (failure === undefined) resolve(messages);
          else reject(failure);
        };
        waiters.add(check);
        check();
      }),
    stop: () => subscription.unsubscribe(),
  };
};

const eventsOf = (messages: readonly LedgerMessage[]): RecordedEvent[] =>
  messages.flatMap((message) => (message.kind === 'event' ? [message.event] : []));
const eventCount = (count: number) => (messages: LedgerMessage[]) => eventsOf(messages).length >= count;
const caughtUpMarks = (messages: readonly LedgerMessage[]) => messages.filter((message) => message.kind === 'caught-up');
const isCaughtUp = (messages: readonly LedgerMessage[]) => caughtUpMarks(messages).length > 0;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Ten events in ten streams (session-0 … ops-9), one each, so tamper tests never collide on (stream, revision). */
const appendTen = async (ledger: Ledger) => {
  for (let i = 0; i < 10; i += 1)
    await ledger.append(i % 2 === 0 ? `session-${i}` : `ops-${i}`, [event('Tested', { n: i, note: `event number ${i}` }, { metadata: { i } })]);
};

export const ledgerContract = (name: string, open: () => Promise<OpenedLedger>): void => {
  describe(`${name} ledger (contract)`, () => {
    const opened: Ledger[] = [];
    const recorders: Recorder[] = [];
    let current: OpenedLedger;
    let ledger: Ledger;
    const subscribe = (...args: Parameters<Ledger['subscribe']>) => {
      const recorder = record(ledger.subscribe(...args));
      recorders.push(recorder);
      return recorder;
    };

    beforeEach(async () => {
      current = await open();
      ledger = current.ledger;
      opened.push(ledger);
    });
    afterEach(async () => {
      for (const recorder of recorders.splice(0)) recorder.stop();
      await Promise.all(opened.splice(0).map((l) => l.close()));
    });

    /** Close, let the adapter's tamper hook edit the storage, and reopen; skips when the adapter has no hooks. */
    const tamperAndReopen = async (context: Mocha.Context, edit: (tamper: Tamperer) => Promise<void>): Promise<Ledger> => {
      const { tamper, reopen } = current;
      if (!tamper || !reopen) return context.skip();
      await ledger.close();
      await edit(tamper);
      const reopened = await reopen();
      opened.push(reopened);
      return reopened;
    };

    describe('append', () => {
      it('gives each stream revisions from 0 and the ledger gap-free positions from 1', async () => {
        expect(await ledger.append('session-a', [event('A'), event('B')])).to.deep.equal({ nextExpectedRevision: 1, position: 2 });
        expect(await ledger.append('session-b', [event('C')])).to.deep.equal({ nextExpectedRevision: 0, position: 3 });
        expect(await ledger.append('session-a', [event('D')])).to.deep.equal({ nextExpectedRevision: 2, position: 4 });
        const all = await ledger.readAll();
        expect(all.map((e) => [e.position, e.stream, e.revision, e.type])).to.deep.equal([
          [1, 'session-a', 0, 'A'],
          [2, 'session-a', 1, 'B'],
          [3, 'session-b', 0, 'C'],
          [4, 'session-a', 2, 'D'],
        ]);
        expect(await ledger.headPosition()).to.equal(4);
      });

      it('stores data and metadata as given and fills in id, version 1, empty metadata and recordedAt', async () => {
        const data = { text: 'héllo 👋', list: [1, 2.5, null, true], nested: { z: 1, a: [] } };
        await ledger.append('session-a', [event('A', data, { metadata: { correlationId: 'c1' }, version: 3, id: 'event-a' }), event('B', 'plain')]);
        const [first, second] = await ledger.readStream('session-a');
        expect(first).to.include({ id: 'event-a', type: 'A', version: 3, stream: 'session-a', revision: 0, position: 1 });
        expect(first!.data).to.deep.equal(data);
        expect(first!.metadata).to.deep.equal({ correlationId: 'c1' });
        expect(second!.data).to.equal('plain');
        expect(second!.version).to.equal(1);
        expect(second!.metadata).to.deep.equal({});
        expect(second!.id).to.be.a('string').and.not.equal('').and.not.equal(first!.id);
        expect(Number.isNaN(Date.parse(second!.recordedAt))).to.equal(false);
        expect(second!.prevHash).to.equal(first!.hash);
        expect(first!.prevHash).to.equal('0'.repeat(64));
      });

      it('returns copies: editing a read event does not change what is stored', async () => {
        await ledger.append('session-a', [event('A', { n: 1 })]);
        const [read] = await ledger.readStream('session-a');
        (read!.data as { n: number }).n = 2;
        const [again] = await ledger.readStream('session-a');
        expect(again!.data).to.deep.equal({ n: 1 });
      });

      it('any: appends whether or not the stream exists', async () => {
        await ledger.append('session-a', [event('A')], { expected: ANY });
        await ledger.append('session-a', [event('A')], { expected: ANY });
        expect(await ledger.readStream('session-a')).to.have.length(2);
      });

      it('no_stream: appends to a new stream and refuses an existing one with the typed error and its fields', async () => {
        await ledger.append('session-a', [event('A'), event('B')], { expected: NO_STREAM });
        const error = await rejectionOf(ledger.append('session-a', [event('C')], { expected: NO_STREAM }));
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect(isWrongExpectedRevision(error)).to.equal(true);
        expect(error).to.include({ type: 'wrong-expected-revision', streamName: 'session-a', expected: NO_STREAM, actual: 1 });
      });

      it('stream_exists: refuses a missing stream with actual no_stream, and appends to an existing one', async () => {
        const error = await rejectionOf(ledger.append('session-a', [event('A')], { expected: STREAM_EXISTS }));
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect(error).to.include({ streamName: 'session-a', expected: STREAM_EXISTS, actual: NO_STREAM });
        await ledger.append('session-a', [event('A')]);
        expect(await ledger.append('session-a', [event('B')], { expected: STREAM_EXISTS })).to.include({ nextExpectedRevision: 1 });
      });

      it('a revision number: appends when it is the last revision and refuses any other with the actual one', async () => {
        await ledger.append('session-a', [event('A'), event('B')]);
        expect(await ledger.append('session-a', [event('C')], { expected: 1 })).to.include({ nextExpectedRevision: 2 });
        for (const expected of [0, 1, 3]) {
          const error = await rejectionOf(ledger.append('session-a', [event('D')], { expected }));
          expect(error).to.be.instanceOf(WrongExpectedRevisionError);
          expect(error).to.include({ streamName: 'session-a', expected, actual: 2 });
        }
        const missing = await rejectionOf(ledger.append('session-new', [event('A')], { expected: 0 }));
        expect(missing).to.include({ streamName: 'session-new', expected: 0, actual: NO_STREAM });
        expect(await ledger.readStream('session-a')).to.have.length(3);
      });

      it('lets exactly one of 64 parallel appends at the same expected revision win', async () => {
        await ledger.append('session-budget', [event('BudgetReserved', { units: 1 })], { expected: NO_STREAM });
        const race = Array.from({ length: 64 }, (_, i) =>
          ledger.append('session-budget', [event('BudgetReserved', { units: 1, by: i })], { expected: 0 }),
        );
        const settled = await Promise.allSettled(race);
        expect(settled.filter(isFulfilled)).to.have.length(1);
        const rejected = settled.filter(isRejected);
        expect(rejected).to.have.length(63);
        for (const { reason } of rejected) {
          expect(reason).to.be.instanceOf(WrongExpectedRevisionError);
          expect(reason).to.include({ streamName: 'session-budget', expected: 0, actual: 1 });
        }
        expect(await ledger.readStream('session-budget')).to.have.length(2);
        expect((await ledger.verify()).ok).to.equal(true);
      });

      it('keeps global positions strictly increasing and gap-free when parallel appends fail in between', async () => {
        const appends = Array.from({ length: 60 }, (_, i) =>
          ledger.append(`session-${i % 5}`, [event('A', { i }), event('B', { i })], { expected: i % 3 === 0 ? NO_STREAM : ANY }),
        );
        const settled = await Promise.allSettled(appends);
        const stored = settled.filter(isFulfilled).length * 2;
        const all = await ledger.readAll();
        expect(all.map((e) => e.position)).to.deep.equal(range(1, stored));
        for (const stream of ['session-0', 'session-1', 'session-2', 'session-3', 'session-4'])
          expect((await ledger.readStream(stream)).map((e) => e.revision)).to.deep.equal(range(0, (await ledger.readStream(stream)).length - 1));
      });

      it('refuses an event id that is already stored, and stores nothing of that append', async () => {
        await ledger.append('session-a', [event('A', {}, { id: 'same-id' })]);
        const error = await rejectionOf(ledger.append('session-b', [event('B'), event('C', {}, { id: 'same-id' })]));
        expect(error).to.be.instanceOf(LedgerInputError);
        const twice = await rejectionOf(ledger.append('session-b', [event('B', {}, { id: 'x' }), event('C', {}, { id: 'x' })]));
        expect(twice).to.be.instanceOf(LedgerInputError);
        expect(await ledger.headPosition()).to.equal(1);
        expect(await ledger.readStream('session-b')).to.deep.equal([]);
      });

      const badAppends: [string, () => Promise<unknown>][] = [
        ['an empty stream name', () => ledger.append('', [event('A')])],
        ['a stream name over 200 characters', () => ledger.append('s'.repeat(201), [event('A')])],
        ['a stream name with a newline', () => ledger.append('session-a\nforged', [event('A')])],
        ['a stream name with a NUL', () => ledger.append('session-\u0000', [event('A')])],
        ['a stream name with a lone surrogate', () => ledger.append('session-\ud800', [event('A')])],
        ['an empty event list', () => ledger.append('session-a', [])],
        ['an empty type', () => ledger.append('session-a', [event('')])],
        ['missing data', () => ledger.append('session-a', [{ type: 'A' } as NewEvent])],
        ['NaN in data', () => ledger.append('session-a', [event('A', { n: Number.NaN })])],
        ['Infinity in data', () => ledger.append('session-a', [event('A', [Number.POSITIVE_INFINITY])])],
        ['a bigint in data', () => ledger.append('session-a', [event('A', { n: 1n })])],
        ['a function in data', () => ledger.append('session-a', [event('A', { f: () => 1 })])],
        ['metadata that is an array', () => ledger.append('session-a', [event('A', {}, { metadata: [] as unknown as Record<string, unknown> })])],
        ['version 0', () => ledger.append('session-a', [event('A', {}, { version: 0 })])],
        ['an empty id', () => ledger.append('session-a', [event('A', {}, { id: '' })])],
        ['expected revision -1', () => ledger.append('session-a', [event('A')], { expected: -1 })],
        ['expected revision 1.5', () => ledger.append('session-a', [event('A')], { expected: 1.5 })],
        ['an unknown expected keyword', () => ledger.append('session-a', [event('A')], { expected: 'latest' as ExpectedRevision })],
      ];
      for (const [what, append] of badAppends)
        it(`refuses ${what} with LedgerInputError and stores nothing`, async () => {
          expect(await rejectionOf(append())).to.be.instanceOf(LedgerInputError);
          expect(await ledger.headPosition()).to.equal(0);
        });

      it('follows the expected-revision rules of a simple model for any sequence of appends', async () => {
        let run = 0;
        const op = fc.record({
          stream: fc.integer({ min: 0, max: 2 }),
          expected: fc.oneof(fc.constantFrom<ExpectedRevision>(ANY, NO_STREAM, STREAM_EXISTS), fc.integer({ min: 0, max: 3 })),
          count: fc.integer({ min: 1, max: 3 }),
        });
        await fc.assert(
          fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
            run += 1;
            const last = new Map<number, number>();
            for (const { stream, expected, count } of ops) {
              const actual = last.get(stream) ?? -1;
              const allowed =
                expected === ANY ||
                (expected === NO_STREAM && actual === -1) ||
                (expected === STREAM_EXISTS && actual !== -1) ||
                expected === actual;
              const events = Array.from({ length: count }, () => event('Modelled'));
              const result = await ledger.append(`model-${run}-${stream}`, events, { expected }).then(
                (value) => ({ ok: true as const, value }),
                (error: unknown) => ({ ok: false as const, error }),
              );
              expect(result.ok, `append to ${stream} expecting ${String(expected)} when last is ${actual}`).to.equal(allowed);
              if (result.ok) {
                expect(result.value.nextExpectedRevision).to.equal(actual + count);
                last.set(stream, actual + count);
              } else expect(result.error).to.be.instanceOf(WrongExpectedRevisionError);
            }
          }),
          { numRuns: 15 },
        );
        expect((await ledger.verify()).ok).to.equal(true);
      });
    });

    describe('reading', () => {
      beforeEach(async () => {
        await ledger.append('session-a', [event('Start'), event('Step'), event('Step')]);
        await ledger.append('ops-drift', [event('DriftDetected')]);
        await ledger.append('session-b', [event('Start'), event('Stop')]);
        await ledger.append('session-a', [event('Stop')]);
      });

      it('readStream returns one stream in revision order, from a revision, at most maxCount', async () => {
        expect((await ledger.readStream('session-a')).map((e) => [e.revision, e.type])).to.deep.equal([
          [0, 'Start'],
          [1, 'Step'],
          [2, 'Step'],
          [3, 'Stop'],
        ]);
        expect((await ledger.readStream('session-a', { fromRevision: 1, maxCount: 2 })).map((e) => e.revision)).to.deep.equal([1, 2]);
        expect(await ledger.readStream('session-a', { fromRevision: 9 })).to.deep.equal([]);
        expect(await ledger.readStream('session-missing')).to.deep.equal([]);
      });

      it('readAll returns the global order after a position, at most maxCount', async () => {
        expect((await ledger.readAll()).map((e) => e.position)).to.deep.equal(range(1, 7));
        expect((await ledger.readAll({ fromPosition: 3, maxCount: 2 })).map((e) => e.position)).to.deep.equal([4, 5]);
        expect(await ledger.readAll({ fromPosition: 7 })).to.deep.equal([]);
        expect(await ledger.readAll({ maxCount: 0 })).to.deep.equal([]);
      });

      it('readAll filters by stream prefix and by type', async () => {
        const positions = (events: RecordedEvent[]) => events.map((e) => e.position);
        expect(positions(await ledger.readAll({ filter: { streamPrefixes: ['session-'] } }))).to.deep.equal([1, 2, 3, 5, 6, 7]);
        expect(positions(await ledger.readAll({ filter: { streamPrefixes: ['ops-', 'session-b'] } }))).to.deep.equal([4, 5, 6]);
        expect(positions(await ledger.readAll({ filter: { types: ['Stop', 'DriftDetected'] } }))).to.deep.equal([4, 6, 7]);
        expect(positions(await ledger.readAll({ filter: { streamPrefixes: ['session-'], types: ['Start'] }, maxCount: 1 }))).to.deep.equal([1]);
        expect(positions(await ledger.readAll({ filter: { streamPrefixes: ['session-'], types: ['Start'] }, fromPosition: 1 }))).to.deep.equal([5]);
        expect(await ledger.readAll({ filter: { streamPrefixes: [] } }), 'an empty prefix list keeps nothing').to.deep.equal([]);
      });

      it('refuses negative or fractional read options with LedgerInputError', async () => {
        expect(await rejectionOf(ledger.readAll({ fromPosition: -1 }))).to.be.instanceOf(LedgerInputError);
        expect(await rejectionOf(ledger.readAll({ maxCount: 1.5 }))).to.be.instanceOf(LedgerInputError);
        expect(await rejectionOf(ledger.readStream('session-a', { fromRevision: -2 }))).to.be.instanceOf(LedgerInputError);
      });
    });

    describe('subscribe', () => {
      it('replays history, marks caught-up exactly once at the head, then delivers live appends', async () => {
        await ledger.append('session-a', [event('A'), event('B')]);
        await ledger.append('session-b', [event('C')]);
        const recorder = subscribe();
        await recorder.until(isCaughtUp);
        await ledger.append('session-a', [event('D')]);
        await ledger.append('session-c', [event('E')]);
        const messages = await recorder.until(eventCount(5));
        await pause(20);
        expect(messages.map((m) => (m.kind === 'event' ? m.event.position : `caught-up ${m.position}`))).to.deep.equal([
          1,
          2,
          3,
          'caught-up 3',
          4,
          5,
        ]);
      });

      it('marks caught-up at position 0 on an empty ledger', async () => {
        const recorder = subscribe();
        await recorder.until(isCaughtUp);
        await pause(20);
        expect(recorder.messages).to.deep.equal([{ kind: 'caught-up', position: 0 }]);
      });

      it('starts after fromPosition', async () => {
        await ledger.append('session-a', [event('A'), event('B'), event('C')]);
        const messages = await subscribe({ fromPosition: 2 }).until(isCaughtUp);
        expect(eventsOf(messages).map((e) => e.position)).to.deep.equal([3]);
        expect(caughtUpMarks(messages)).to.deep.equal([{ kind: 'caught-up', position: 3 }]);
      });

      it('delivers every event exactly once and in order while appends race the catch-up', async () => {
        for (let i = 0; i < 20; i += 1) await ledger.append(`session-${i % 4}`, range(1, 15).map((n) => event('History', { i, n })));
        // Appends keep landing, single and in parallel groups, while the subscription pages through history.
        const racing = (async () => {
          for (let round = 0; round < 40; round += 1) {
            const parallel = Array.from({ length: 1 + (round % 5) }, (_, k) => ledger.append(`race-${(round + k) % 3}`, [event('Live', { round, k })]));
            await Promise.all(parallel);
            if (round % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        const recorder = subscribe();
        await racing;
        const last = await ledger.append('race-end', [event('End')]);
        const messages = await recorder.until(eventCount(last.position));
        await pause(20);
        expect(eventsOf(messages).map((e) => e.position)).to.deep.equal(range(1, last.position));
        const marks = caughtUpMarks(messages);
        expect(marks).to.have.length(1);
        const markIndex = messages.findIndex((m) => m.kind === 'caught-up');
        const mark = marks[0]!.kind === 'caught-up' ? marks[0]!.position : -1;
        expect(eventsOf(messages.slice(0, markIndex)).every((e) => e.position <= mark)).to.equal(true);
        expect(eventsOf(messages.slice(markIndex)).every((e) => e.position > mark)).to.equal(true);
      });

      it('delivers each live event once when many appends land in parallel after catch-up', async () => {
        const recorder = subscribe();
        await recorder.until(isCaughtUp);
        await Promise.all(range(1, 100).map((i) => ledger.append(`session-${i % 7}`, [event('A', { i }), event('B', { i })])));
        await recorder.until(eventCount(200));
        await pause(20);
        expect(eventsOf(recorder.messages).map((e) => e.position)).to.deep.equal(range(1, 200));
      });

      it('filters by stream prefix and type, in history and live, and still marks caught-up at the head', async () => {
        await ledger.append('session-a', [event('Start'), event('Step')]);
        await ledger.append('ops-drift', [event('Start')]);
        const recorder = subscribe({ filter: { streamPrefixes: ['session-'], types: ['Start'] } });
        await recorder.until(isCaughtUp);
        await ledger.append('ops-drift', [event('Start')]);
        await ledger.append('session-b', [event('Step'), event('Start')]);
        await recorder.until(eventCount(2));
        await pause(20);
        expect(recorder.messages.map((m) => (m.kind === 'event' ? `${m.event.stream}@${m.event.position}` : `caught-up ${m.position}`))).to.deep.equal([
          'session-a@1',
          'caught-up 3',
          'session-b@6',
        ]);
      });

      it('stops delivering after unsubscribe', async () => {
        const recorder = subscribe();
        await ledger.append('session-a', [event('A')]);
        await recorder.until(eventCount(1));
        recorder.stop();
        await ledger.append('session-a', [event('B')]);
        await pause(20);
        expect(eventsOf(recorder.messages).map((e) => e.position)).to.deep.equal([1]);
      });

      it('completes live subscriptions when the ledger closes', async () => {
        let completed = false;
        const subscription = ledger.subscribe().subscribe({ complete: () => (completed = true) });
        await pause(10);
        await ledger.close();
        expect(completed).to.equal(true);
        subscription.unsubscribe();
      });
    });

    describe('verify', () => {
      it('passes on an intact ledger and counts every event', async () => {
        await appendTen(ledger);
        expect(await ledger.verify()).to.deep.include({ ok: true, checked: 10, head: 10 });
      });

      it('passes on an empty ledger', async () => {
        expect(await ledger.verify()).to.deep.include({ ok: true, checked: 0, head: 0 });
      });

      it('keeps every event across a reopen and compares a valid signed checkpoint at the head', async function () {
        await appendTen(ledger);
        const before = await ledger.readAll();
        const reopened = await tamperAndReopen(this, async () => undefined);
        expect(await reopened.readAll()).to.deep.equal(before);
        const report = await reopened.verify();
        expect(report).to.deep.include({ ok: true, checked: 10, head: 10 });
        expect(report.checkpoint).to.deep.equal({ position: 10, hash: before[9]!.hash, signatureValid: true });
        expect(await reopened.append('session-0', [event('After')], { expected: 0 })).to.deep.equal({ nextExpectedRevision: 1, position: 11 });
      });

      for (const field of storedFields)
        it(`fails naming the position when one bit of a stored event's ${field} changes`, async function () {
          await appendTen(ledger);
          const reopened = await tamperAndReopen(this, (tamper) => tamper.changeField(5, field));
          const report = await reopened.verify();
          expect(report).to.include({ ok: false, firstBadPosition: 5 });
          expect(report.problem).to.match(/position 5/);
        });

      it('fails naming the first missing position when an event in the middle is deleted', async function () {
        await appendTen(ledger);
        const reopened = await tamperAndReopen(this, (tamper) => tamper.deleteEvent(4));
        const report = await reopened.verify();
        expect(report).to.include({ ok: false, firstBadPosition: 4, checked: 3 });
        expect(report.problem).to.match(/missing/);
      });

      it('fails when events are cut off the end, because the signed checkpoint is ahead of the head', async function () {
        await appendTen(ledger);
        const reopened = await tamperAndReopen(this, (tamper) => tamper.deleteTail(3));
        const report = await reopened.verify();
        expect(report).to.include({ ok: false, head: 7, firstBadPosition: 8 });
        expect(report.problem).to.match(/checkpoint/);
        expect(report.checkpoint).to.include({ position: 10, signatureValid: true });
      });

      it('fails when the chain is rewritten consistently, because the hash at the checkpoint differs', async function () {
        await appendTen(ledger);
        const reopened = await tamperAndReopen(this, (tamper) => tamper.rewriteFrom(6));
        const report = await reopened.verify();
        expect(report).to.include({ ok: false, firstBadPosition: 10, checked: 10 });
        expect(report.problem).to.match(/checkpoint/);
      });

      it('fails when the checkpoint signature is bad', async function () {
        await appendTen(ledger);
        const reopened = await tamperAndReopen(this, (tamper) => tamper.breakCheckpointSignature());
        const report = await reopened.verify();
        expect(report.ok).to.equal(false);
        expect(report.checkpoint).to.include({ signatureValid: false });
        expect(report.problem).to.match(/signature/);
      });

      it('does not move a checkpoint the chain no longer matches, so appending cannot hide a cut tail', async function () {
        await appendTen(ledger);
        const reopened = await tamperAndReopen(this, (tamper) => tamper.deleteTail(3));
        await reopened.append('session-x', [event('A'), event('B'), event('C'), event('D')]);
        await reopened.close();
        const again = await current.reopen!();
        opened.push(again);
        const report = await again.verify();
        expect(report).to.include({ ok: false, firstBadPosition: 10 });
        expect(report.checkpoint).to.include({ position: 10 });
      });
    });
  });
};
