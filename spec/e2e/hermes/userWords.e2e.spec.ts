/**
 * The user's own words, captured from a real Hermes 0.19 turn that carries an addition of Hermes'.
 *
 * `hermes chat -q` without `-Q` sends the text through `HermesCLI.chat` (cli.py:11883-11903), which expands
 * `@file:` references with agent/context_references.py `preprocess_context_references`: the reference token is
 * removed from the typed text and the file's content is appended after a "--- Attached Context ---" header
 * (:201-205). pre_llm_call receives that expanded message (agent/turn_context.py:696). The ledger must keep only
 * the person's words: the expected value is built by Hermes' own function, run in the installed Hermes.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { useHermes } from './support/hermesVenv.ts';
import { ofType, type RecordedTollgateEvent } from './support/tollgateDaemon.ts';
import { converse, openWorld, type Conversation, type World } from './support/world.ts';

const TYPED = 'Summarise @file:notes.md for me, thanks';
const FILE_BODY = 'ATTACHED-BODY-3e9d: the launch moves to Friday.\n';

interface Expansion { readonly message: string; readonly userPart: string; readonly expanded: boolean }

/** Hermes' own expansion of the typed text, and the part of it that is the person's words. */
const hermesExpansion = (python: string, cwd: string, home: string): Expansion => {
  const script = [
    'import json, sys',
    'from agent.context_references import preprocess_context_references',
    'r = preprocess_context_references(sys.argv[1], cwd=sys.argv[2], context_length=131072)',
    'marker = "\\n\\n--- Attached Context ---\\n\\n"',
    'print(json.dumps({"message": r.message, "userPart": r.message.split(marker)[0], "expanded": bool(r.expanded)}))',
  ].join('\n');
  const out = spawnSync(python, ['-c', script, TYPED, cwd], { encoding: 'utf8', env: { ...process.env, HERMES_HOME: home }, timeout: 60_000 });
  if (out.status !== 0) throw new Error(`Hermes' preprocess_context_references failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as Expansion;
};

describe('Hermes 0.19 + tollgate plugin: the user\'s own words, without Hermes\' @-reference attachment', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  let events: RecordedTollgateEvent[];
  let expansion: Expansion;

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-words' });
    writeFileSync(world.file('notes.md'), FILE_BODY);
    conversation = await converse(world, {
      install: hermes.current,
      quiet: false,
      userText: TYPED,
      script: [{ text: 'Summary: Friday.' }],
    });
    expansion = hermesExpansion(hermes.current.python, world.work, conversation.home.path);
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  it('Hermes did add the attachment to what it sent (the precondition)', () => {
    const { run } = conversation;
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(expansion.expanded).to.equal(true);
    const sent = run.requests[0]?.messages.find((m) => m.role === 'user')?.content;
    expect(sent, run.describe()).to.equal(expansion.message);
    expect(sent as string).to.contain('ATTACHED-BODY-3e9d');
  });

  it('records only what the person typed', () => {
    const { run } = conversation;
    const received = ofType(events, 'UserMessageReceived');
    expect(received, run.describe()).to.have.length(1);
    const message = received[0]!.data;
    const stored = world.daemon!.payload(message.textRef);
    // Hermes hands over the typed text with the reference token already taken out (it became the attachment);
    // the person's words are what is left before the attachment: "Summarise for me, thanks".
    expect(stored.text, `captured ${JSON.stringify(stored.text)}`).to.equal(expansion.userPart);
    expect(stored.text).to.not.contain('ATTACHED-BODY-3e9d');
    expect(stored.text).to.not.contain('Attached Context');
    expect(message.length).to.equal(stored.text!.length);
    expect(message.textDigest).to.equal(stored.digestOf(stored.text!));
    expect(message.sessionId).to.equal(run.sessionId);
    expect(message.platform).to.equal('cli');
  });
});
