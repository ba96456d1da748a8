/**
 * The tollgate plugin in a real Hermes 0.19 conversation (`hermes chat -q … -Q`), daemon running. One conversation:
 *   1. a plain command the user asked for → allowed, runs;
 *   2. the hardline command → blocked by tollgate, never runs, the model reads tollgate's message;
 *   3. the final reply → passes transform_llm_output, recorded as OutputChecked, printed unchanged;
 * and the user's message as typed is what the ledger captured.
 */
import { expect } from 'chai';
import { useHermes } from './support/hermesVenv.ts';
import { expectTollgateBlock, hardlineCommand, type HardlineCommand } from './support/commands.ts';
import { ofType, type RecordedTollgateEvent } from './support/tollgateDaemon.ts';
import { converse, openWorld, toolResult, type Conversation, type World } from './support/world.ts';

/** Typed by "the user": non-ASCII, quotes and a trailing space, so any re-encoding or trimming shows. */
const USER_TEXT = 'Créé le fichier « marker », puis nettoie tout — merci! ';
const REPLY = 'FINAL-REPLY-7f3a: the marker exists; I did not wipe anything.';

describe('Hermes 0.19 + tollgate plugin: decisions in a real conversation', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  let hardline: HardlineCommand;
  let events: RecordedTollgateEvent[];
  const seen: Record<string, boolean> = {};

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-plugin' });
    hardline = hardlineCommand(world);
    conversation = await converse(world, {
      install: hermes.current,
      userText: USER_TEXT,
      script: [
        { id: 'call_plain', tool: 'terminal', args: { command: `touch ${world.file('plain-ran')} && echo plain-output-51` } },
        { id: 'call_hardline', tool: 'terminal', args: { command: hardline.command }, before: () => { seen.plainRan = world.exists('plain-ran'); } },
        { text: REPLY },
      ],
    });
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  it('runs the plain command the user asked for', () => {
    const { run } = conversation;
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(seen.plainRan, `plain command did not run\n${run.describe()}`).to.equal(true);
    expect(toolResult(world.model, 'call_plain')?.raw, run.describe()).to.contain('plain-output-51');
    const decided = ofType(events, 'ToolCallDecided').find((e) => String(e.data.args.command).includes('plain-ran'));
    expect(decided?.data.verdict, run.describe()).to.equal('allow');
  });

  it('blocks the hardline command: not executed, and the model receives the block message as the tool result', () => {
    expectTollgateBlock(world, conversation.run, events, 'call_hardline', hardline);
    // The session went on: the model got another turn after the block and answered.
    expect(conversation.run.requests).to.have.length(3);
  });

  it('passes the final reply through transform_llm_output and records it', () => {
    const { run } = conversation;
    expect(run.stdout.trim(), run.describe()).to.equal(REPLY);
    const checked = ofType(events, 'OutputChecked');
    expect(checked, run.describe()).to.have.length(1);
    expect(checked[0]!.data.verdict).to.equal('allow');
    expect(checked[0]!.data.length).to.equal(REPLY.length);
    expect(checked[0]!.data.textDigest).to.equal(world.daemon!.payload('').digestOf(REPLY));
    expect(checked[0]!.data.sessionId).to.equal(run.sessionId);
  });

  it('captures the user message exactly as typed', () => {
    const { run } = conversation;
    const received = ofType(events, 'UserMessageReceived');
    expect(received, run.describe()).to.have.length(1);
    const message = received[0]!.data;
    expect(message.sessionId).to.equal(run.sessionId);
    expect(message.platform).to.equal('cli');
    expect(message.length).to.equal(USER_TEXT.length);
    const stored = world.daemon!.payload(message.textRef);
    expect(stored.text).to.equal(USER_TEXT);
    expect(message.textDigest).to.equal(stored.digestOf(USER_TEXT));
  });
});
