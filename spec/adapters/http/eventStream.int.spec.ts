import { expect } from 'chai';
import { eventually, preToolCall, sleep, startDaemon, startSession, type Daemon } from './support/daemonFixture.ts';
import { rawConnect } from './support/rawRequest.ts';
import { caughtUp, collectStream, type Collected } from './support/streamCollector.ts';

describe('GET /v1/stream (Server-Sent Events)', () => {
  let daemon: Daemon;
  const open: Collected[] = [];
  const stream = async (path = '/v1/stream', lastEventId?: number | string): Promise<Collected> => {
    const c = await collectStream(daemon.socket, path, lastEventId);
    open.push(c);
    return c;
  };
  beforeEach(async () => { daemon = await startDaemon({ server: { stream: { heartbeatMs: 50, retryMs: 1234, maxQueuedBytes: 64 * 1024, pageSize: 7 } } }); });
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
    await daemon.stop();
  });

  it('starts live at the head: earlier events are not replayed, later ones arrive with their positions as ids', async () => {
    await startSession(daemon, 'old');
    const c = await stream();
    await c.waitFor(caughtUp);
    await startSession(daemon, 's1');
    await c.waitFor((x) => x.events().length >= 2);
    const events = c.events();
    expect(events.map((e) => e.event)).to.deep.equal(['SessionStarted', 'UserMessageReceived']);
    const recorded = (await daemon.recorded()).slice(-2);
    expect(events.map((e) => e.id)).to.deep.equal(recorded.map((r) => r.position));
    expect(events[1]!.data).to.deep.include({ position: recorded[1]!.position, stream: 'session-s1', type: 'UserMessageReceived', recordedAt: recorded[1]!.recordedAt });
    expect(events[1]!.data.data).to.include({ sessionId: 's1' });
  });

  it('sends retry: first, a caught-up event after history, and heartbeat comments', async () => {
    const c = await stream();
    await c.waitFor((x) => caughtUp(x) && x.comments.includes('heartbeat'));
    const first = c.messages[0]!;
    expect(first.event).to.equal('caught-up');
    expect(JSON.parse(first.data)).to.deep.equal({ position: await daemon.gate.ledger.headPosition() });
  });

  it('replays history after ?after= (over several pages, waiting for drain) and then goes live', async () => {
    for (let i = 0; i < 10; i++) await startSession(daemon, `s${i}`);
    const c = await stream('/v1/stream?after=0');
    await c.waitFor(caughtUp);
    const history = c.events();
    expect(history.map((e) => e.id)).to.deep.equal((await daemon.recorded()).map((r) => r.position));
    await startSession(daemon, 'live');
    await c.waitFor((x) => x.events().length === history.length + 2);
    const caughtUpAt = c.messages.findIndex((m) => m.event === 'caught-up');
    expect(caughtUpAt).to.equal(history.length);
  });

  it('resumes with Last-Event-ID: exactly the missed events, no gap and no duplicate', async () => {
    const first = await stream('/v1/stream?after=0');
    await startSession(daemon, 'a');
    await first.waitFor((x) => x.events().length >= 2);
    const lastSeen = first.handle.lastEventId();
    await first.close();
    // Missed while disconnected.
    await startSession(daemon, 'b');
    await preToolCall(daemon, 'b', 'ls');
    const second = await stream('/v1/stream?after=0', lastSeen!);
    await second.waitFor(caughtUp);
    await startSession(daemon, 'c');
    await second.waitFor((x) => x.events().some((e) => e.data.data['sessionId'] === 'c' && e.event === 'UserMessageReceived'));
    const all = (await daemon.recorded()).map((r) => r.position);
    const seen = [...first.events().map((e) => e.id).filter((id) => id <= Number(lastSeen)), ...second.events().map((e) => e.id)];
    expect(seen).to.deep.equal(all);
  });

  it('never loses or repeats an event appended while history is being read (property over many appends)', async () => {
    for (let i = 0; i < 20; i++) await startSession(daemon, `h${i}`);
    const c = await stream('/v1/stream?after=0');
    const writers = Array.from({ length: 15 }, (_, i) => startSession(daemon, `w${i}`));
    await Promise.all(writers);
    const head = await daemon.gate.ledger.headPosition();
    await c.waitFor((x) => x.events().at(-1)?.id === head);
    expect(c.events().map((e) => e.id)).to.deep.equal(Array.from({ length: head }, (_, i) => i + 1));
  });

  describe('filters', () => {
    beforeEach(async () => {
      await startSession(daemon, 's1');
      await startSession(daemon, 's2');
      await preToolCall(daemon, 's1', 'rm -rf /');
      await preToolCall(daemon, 's1', 'ls');
      await daemon.request('POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 's2', tool_name: 'read_file', args: { path: 'x' } });
    });
    const ofFilter = async (query: string): Promise<Collected> => {
      const c = await stream(`/v1/stream?after=0&${query}`);
      await c.waitFor(caughtUp);
      return c;
    };

    it('session= keeps only that session\'s events', async () => {
      const events = (await ofFilter('session=s2')).events();
      expect(events).to.not.be.empty;
      expect(events.every((e) => e.data.data['sessionId'] === 's2')).to.equal(true);
    });

    it('verdict= keeps only decisions with that verdict', async () => {
      const events = (await ofFilter('verdict=block')).events();
      expect(events.map((e) => [e.event, e.data.data['verdict']])).to.deep.equal([['ToolCallDecided', 'block']]);
    });

    it('layer= keeps only decisions made by that layer', async () => {
      const events = (await ofFilter('layer=hardline')).events();
      expect(events.map((e) => e.data.data['layer'])).to.deep.equal(['hardline']);
    });

    it('tool= keeps only events about that tool', async () => {
      const events = (await ofFilter('tool=read_file')).events();
      expect(events.map((e) => e.event)).to.deep.equal(['ToolCallDecided']);
      expect(events[0]!.data.data['tool']).to.equal('read_file');
    });

    it('type= keeps only those event types, and filters combine', async () => {
      const types = (await ofFilter('type=SessionStarted,UserMessageReceived')).events().map((e) => e.event);
      expect(types).to.deep.equal(['SessionStarted', 'UserMessageReceived', 'SessionStarted', 'UserMessageReceived']);
      const combined = (await ofFilter('type=ToolCallDecided&session=s1&verdict=allow')).events();
      expect(combined.map((e) => e.data.data['tool'])).to.deep.equal(['terminal']);
      expect(combined[0]!.data.data['verdict']).to.equal('allow');
    });

    it('applies filters to live events too', async () => {
      const c = await stream('/v1/stream?verdict=block');
      await c.waitFor(caughtUp);
      await preToolCall(daemon, 's1', 'ls');
      await preToolCall(daemon, 's1', 'rm -rf /');
      await c.waitFor((x) => x.events().length === 1);
      await sleep(50);
      expect(c.events().map((e) => e.data.data['verdict'])).to.deep.equal(['block']);
    });
  });

  it('removes the subscription when the client goes away', async () => {
    const c = await stream();
    await c.waitFor(caughtUp);
    expect(daemon.server.stats().openStreams).to.equal(1);
    await c.close();
    await eventually(() => expect(daemon.server.stats().openStreams).to.equal(0));
    await startSession(daemon, 'after-close');
    await expectHealthy(daemon);
  });

  it('disconnects a client that stops reading once its queue passes the bound, instead of growing memory', async () => {
    const raw = await rawConnect(daemon.socket);
    raw.socket.write('GET /v1/stream HTTP/1.1\r\nHost: d\r\n\r\n');
    await eventually(() => expect(daemon.server.stats().openStreams).to.equal(1));
    raw.socket.pause();
    // Each rejection is ~2 KB on the stream; far more than the socket buffers plus the 64 KiB bound.
    for (let i = 0; i < 2000 && daemon.server.stats().openStreams > 0; i++)
      await daemon.gate.recordRejection('test', 'x'.repeat(2000), null, false);
    await eventually(() => expect(daemon.server.stats().openStreams).to.equal(0));
    raw.socket.resume();
    const received = await raw.received(2000);
    expect(received.length).to.be.below(2000 * 2200);
    raw.socket.destroy();
    await expectHealthy(daemon);
  });

  it('ends open streams when the server closes', async () => {
    const c = await stream();
    await c.waitFor(caughtUp);
    await daemon.server.close();
    await c.handle.done;
    expect(daemon.server.stats().openStreams).to.equal(0);
  });
});

const expectHealthy = async (daemon: Daemon): Promise<void> => {
  expect((await daemon.request('GET', '/v1/health')).json).to.include({ ok: true });
};
