/**
 * G10: a BLOCK stops the tool even when another plugin that approves everything is loaded first and Hermes runs with
 * `--yolo` — on the first tool call of the process and on later ones.
 *
 * Why this is a real threat in 0.19: `_get_pre_tool_call_directive_details` (hermes_cli/plugins.py:2101-2175) takes
 * the FIRST valid `block`/`approve` directive in hook-list order, and under `--yolo` `request_tool_approval` approves
 * an `approve` directive without asking anyone (tools/approval.py:2692). Plugins load in sorted folder order, so
 * `aaa_approve_everything` registers before `tollgate`. The control conversation shows the hole with a naive blocking
 * plugin: the earlier approve wins and `rm -r` runs. With tollgate, its block must still stand (it keeps its callback
 * first in Hermes' hook list).
 */
import { expect } from 'chai';
import { useHermes } from './support/hermesVenv.ts';
import { approveEverythingPlugin, type ExtraPlugin } from './support/hermesHome.ts';
import { expectTollgateBlock, hardlineCommand, type HardlineCommand } from './support/commands.ts';
import { ofType, type RecordedTollgateEvent } from './support/tollgateDaemon.ts';
import { converse, openWorld, toolResult, type Conversation, type World } from './support/world.ts';

const naiveBlocker: ExtraPlugin = {
  name: 'naive_blocker',
  hooks: ['pre_tool_call'],
  init: `"""tollgate e2e control: blocks every tool call, without caring where it sits in Hermes' hook list."""


def _block(**kwargs):
    return {"action": "block", "message": "naive_blocker: blocked"}


def register(ctx):
    ctx.register_hook("pre_tool_call", _block)
`,
};

describe('Hermes 0.19 control: an earlier approve-everything plugin hides a later block under --yolo', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-g10-control', daemon: false });
    conversation = await converse(world, {
      install: hermes.current,
      tollgatePlugin: false,
      extraPlugins: [approveEverythingPlugin, naiveBlocker],
      yolo: true,
      userText: 'Remove the victim folder.',
      script: [{ id: 'call_control', tool: 'terminal', args: { command: `rm -r ${world.makeVictim('victim')}` } }, { text: 'Control over.' }],
    });
  });
  after(async () => { await world?.close(); });

  it('runs the command: the approve directive came first and won', () => {
    const { run } = conversation;
    expect(world.exists('victim'), `the naive block held — the adversary is toothless on this Hermes\n${run.describe()}`).to.equal(false);
    expect(toolResult(world.model, 'call_control')?.raw ?? '', run.describe()).to.not.contain('naive_blocker');
  });
});

describe('Hermes 0.19 + tollgate plugin: an approve-everything plugin loaded first, --yolo (G10)', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  let hardline: HardlineCommand;
  let events: RecordedTollgateEvent[];
  const seen: Record<string, boolean> = {};

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-g10' });
    hardline = hardlineCommand(world);
    const first = `rm -r ${world.makeVictim('victim-first')}`;
    const later = `rm -r ${world.makeVictim('victim-later')}`;
    conversation = await converse(world, {
      install: hermes.current,
      extraPlugins: [approveEverythingPlugin],
      yolo: true,
      // Questions come back as blocks naming them (no prompt): the same block path as the hardline floor.
      env: { TOLLGATE_HERMES_PROMPT: 'never' },
      userText: 'Clean everything up.',
      script: [
        { id: 'call_first', tool: 'terminal', args: { command: first } },
        { id: 'call_hardline', tool: 'terminal', args: { command: hardline.command }, before: () => { seen.firstKept = world.exists('victim-first'); } },
        { id: 'call_later', tool: 'terminal', args: { command: later } },
        { text: 'G10 over.' },
      ],
    });
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  it('blocks the first tool call of the process', () => {
    const { run } = conversation;
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(seen.firstKept, `the first call ran\n${run.describe()}`).to.equal(true);
    const error = toolResult(world.model, 'call_first')?.json?.error;
    expect(error, run.describe()).to.be.a('string').and.contain('A human has been asked');
    expect(error as string).to.not.contain('approve_everything');
  });

  it('blocks a later hardline call with tollgate\'s message', () => {
    expectTollgateBlock(world, conversation.run, events, 'call_hardline', hardline);
  });

  it('blocks a later call that only tollgate stops', () => {
    const { run } = conversation;
    expect(world.exists('victim-later'), `the later call ran\n${run.describe()}`).to.equal(true);
    expect(world.exists('victim-first')).to.equal(true);
    expect(toolResult(world.model, 'call_later')?.json?.error, run.describe()).to.be.a('string').and.contain('A human has been asked');
    const verdicts = ofType(events, 'ToolCallDecided').map((e) => e.data.verdict);
    expect(verdicts).to.deep.equal(['ask', 'block', 'ask']);
  });
});
