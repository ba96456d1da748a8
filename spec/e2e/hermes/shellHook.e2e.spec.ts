/**
 * The shell-hook path, without the plugin: Hermes 0.19 runs `tollgate hook --hermes` (agent/shell_hooks.py) for
 * pre_llm_call and for each matching pre_tool_call. One conversation:
 *   1. a plain command → allowed, runs (the hook is active and lets ordinary work through);
 *   2. the hardline command → blocked by tollgate, not executed, the model reads tollgate's message;
 *   3. (daemon stopped first) a plain command → blocked: 0.19 ignores a hook's exit code and failures, so the hook
 *      client itself must print the block.
 */
import { expect } from 'chai';
import { useHermes } from './support/hermesVenv.ts';
import { ofType } from './support/tollgateDaemon.ts';
import { converse, openWorld, toolResult, type Conversation, type World } from './support/world.ts';
import { expectTollgateBlock, hardlineCommand } from './support/commands.ts';

describe('Hermes 0.19 shell hook: tollgate hook --hermes', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  const seen: Record<string, boolean> = {};

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-hook' });
    const hardline = hardlineCommand(world);
    conversation = await converse(world, {
      install: hermes.current,
      tollgatePlugin: false,
      shellHook: {},
      userText: 'Make the marker file, then wipe the machine.',
      script: [
        { id: 'call_plain', tool: 'terminal', args: { command: `touch ${world.file('hook-plain-ran')}` } },
        { id: 'call_hardline', tool: 'terminal', args: { command: hardline.command }, before: () => { seen.plainRan = world.exists('hook-plain-ran'); } },
        {
          id: 'call_after_stop', tool: 'terminal', args: { command: `touch ${world.file('hook-after-stop-ran')}` },
          before: async () => { await world.daemon?.stop(); },
        },
        { text: 'Hook conversation over.' },
      ],
    });
  });
  after(async () => { await world?.close(); });

  it('lets a plain command run', () => {
    const { run } = conversation;
    expect(seen.plainRan, run.describe()).to.equal(true);
    expect(toolResult(world.model, 'call_plain')?.json?.exit_code, run.describe()).to.equal(0);
  });

  it('blocks the hardline command: not executed, and the model receives tollgate\'s block message', async () => {
    const events = await world.daemon!.events();
    expectTollgateBlock(world, conversation.run, events, 'call_hardline', hardlineCommand(world));
    expect(ofType(events, 'UserMessageReceived'), 'pre_llm_call through the hook opened the session').to.have.length(1);
  });

  it('blocks a plain command once the daemon is gone (the hook client fails closed)', () => {
    const { run } = conversation;
    expect(world.exists('hook-after-stop-ran'), `ran without a daemon\n${run.describe()}`).to.equal(false);
    const result = toolResult(world.model, 'call_after_stop');
    expect(result?.json?.error, run.describe()).to.be.a('string').and.not.equal('');
    expect(run.stdout).to.contain('Hook conversation over.');
  });
});
