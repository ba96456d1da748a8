/**
 * Fail closed, through real Hermes 0.19 dispatch. Hermes 0.19 skips a plugin callback that raises
 * (hermes_cli/plugins.py:1918-1926) — for pre_tool_call that runs the tool, for transform_llm_output that sends the
 * reply unchecked — so the plugin itself must turn every failure into a block or the held-reply notice. The tool
 * calls here are plain commands that would run (and create a file) if the guard let them through.
 *
 * A. The daemon stops in the middle of a conversation (after it allowed a first call over a kept-alive connection).
 * B. The plugin's own code raises inside a decision. The plugin has no test switch for this (no
 *    `TOLLGATE_PLUGIN_TEST_RAISE`), so a second plugin, loaded after it, replaces the plugin's daemon client method
 *    `DaemonClient.post` (adapters/hermes/plugin/tollgate/client.py) with one that raises RuntimeError — an
 *    unexpected exception class, not the DaemonError the plugin expects.
 * C. The plugin fails while starting (`register` hits an invalid setting): the stub it leaves behind blocks.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useHermes } from './support/hermesVenv.ts';
import { tollgatePluginSource, type ExtraPlugin } from './support/hermesHome.ts';
import { ofType } from './support/tollgateDaemon.ts';
import { converse, openWorld, toolResult, type Conversation, type World } from './support/world.ts';

const REPLY = 'SECRET-REPLY-91c2: this text must not reach the user unchecked.';

/** The plugin's fixed notice for a reply it could not have checked (read from its source, so wording can evolve). */
const heldNotice = (): string => {
  const source = readFileSync(join(tollgatePluginSource, '__init__.py'), 'utf8');
  const match = /^HELD_REPLY_NOTICE\s*=\s*"([^"]+)"/m.exec(source);
  if (!match) throw new Error('HELD_REPLY_NOTICE not found in the plugin\'s __init__.py');
  return match[1]!;
};

const expectHeldReply = (conversation: Conversation) => {
  const { run } = conversation;
  expect(run.stdout, run.describe()).to.not.contain('SECRET-REPLY-91c2');
  expect(run.stdout.trim(), run.describe()).to.equal(heldNotice());
};

const expectBlocked = (world: World, conversation: Conversation, callId: string, file: string) => {
  const { run } = conversation;
  expect(world.exists(file), `the call ran\n${run.describe()}`).to.equal(false);
  const error = toolResult(world.model, callId)?.json?.error;
  expect(error, run.describe()).to.be.a('string').and.match(/tollgate/i);
  return error as string;
};

describe('Hermes 0.19 + tollgate plugin: the daemon stops mid-conversation', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  const seen: Record<string, boolean> = {};

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-down' });
    conversation = await converse(world, {
      install: hermes.current,
      userText: 'Make two marker files.',
      script: [
        { id: 'call_before', tool: 'terminal', args: { command: `touch ${world.file('before-stop')}` } },
        {
          id: 'call_after', tool: 'terminal', args: { command: `touch ${world.file('after-stop')}` },
          before: async () => { seen.beforeRan = world.exists('before-stop'); await world.daemon!.stop(); },
        },
        { text: REPLY },
      ],
    });
  });
  after(async () => { await world?.close(); });

  it('allowed the first call while the daemon ran (the control)', () => {
    expect(seen.beforeRan, conversation.run.describe()).to.equal(true);
  });

  it('blocks the tool call once the daemon is gone', () => {
    const error = expectBlocked(world, conversation, 'call_after', 'after-stop');
    expect(error).to.contain('daemon');
  });

  it('holds the reply: the printed reply is the held notice', () => {
    expectHeldReply(conversation);
  });
});

const saboteur: ExtraPlugin = {
  name: 'zzz_saboteur',
  hooks: [],
  init: `"""tollgate e2e: makes the tollgate plugin's daemon client raise an unexpected exception (loads after it)."""
import os
import sys


def register(ctx):
    client = sys.modules.get("hermes_plugins.tollgate.client")
    target = getattr(client, "DaemonClient", None)
    if target is None or not callable(getattr(target, "post", None)):
        raise RuntimeError("saboteur: hermes_plugins.tollgate.client.DaemonClient.post not found")

    def post(self, *args, **kwargs):
        raise RuntimeError("saboteur: an unexpected failure inside the tollgate plugin")

    target.post = post
    with open(os.environ["SABOTEUR_MARKER"], "w") as marker:
        marker.write("patched")
`,
};

describe('Hermes 0.19 + tollgate plugin: the plugin raises inside a decision', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-raise' });
    conversation = await converse(world, {
      install: hermes.current,
      extraPlugins: [saboteur],
      env: { SABOTEUR_MARKER: world.temp.file('saboteur-patched') },
      userText: 'Make a marker file.',
      script: [{ id: 'call_raised', tool: 'terminal', args: { command: `touch ${world.file('raised-ran')}` } }, { text: REPLY }],
    });
  });
  after(async () => { await world?.close(); });

  it('really made the plugin raise (the saboteur patched it)', () => {
    expect(readFileSync(world.temp.file('saboteur-patched'), 'utf8')).to.equal('patched');
  });

  it('blocks the tool call', async () => {
    const error = expectBlocked(world, conversation, 'call_raised', 'raised-ran');
    expect(error).to.contain('saboteur');
    // Nothing reached the daemon: the block came from the plugin's own exception handler.
    expect(ofType(await world.daemon!.events(), 'ToolCallDecided')).to.deep.equal([]);
  });

  it('holds the reply', () => {
    expectHeldReply(conversation);
  });
});

describe('Hermes 0.19 + tollgate plugin: the plugin fails to start', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-badstart' });
    conversation = await converse(world, {
      install: hermes.current,
      env: { TOLLGATE_TIMEOUT_MS: 'not-a-number' },
      userText: 'Make a marker file.',
      script: [{ id: 'call_stub', tool: 'terminal', args: { command: `touch ${world.file('stub-ran')}` } }, { text: REPLY }],
    });
  });
  after(async () => { await world?.close(); });

  it('blocks every tool call and says the guard failed to start', () => {
    const error = expectBlocked(world, conversation, 'call_stub', 'stub-ran');
    expect(error).to.contain('TOLLGATE_TIMEOUT_MS');
  });

  it('holds the reply', () => {
    expectHeldReply(conversation);
  });
});
