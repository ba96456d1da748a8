/**
 * The question in Hermes' approval prompt cannot be spoofed: the real Python plugin, asking through a recording
 * stand-in for Hermes' prompt, against the real daemon. A command that erases its own line and one with a
 * right-to-left override reach the prompt with the escapes visible and without the raw characters; the daemon's
 * `prompt_text` is what the prompt shows.
 */
import { expect } from 'chai';
import { startDaemon, type Daemon } from '../http/support/daemonFixture.ts';
import { PluginDriver } from './support/python.ts';

const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/u;

const call = (tool: string, args: Record<string, unknown>, id: string): Record<string, unknown> => ({
  tool_name: tool, args, task_id: 'task-1', session_id: 's1', tool_call_id: id, turn_id: 's1:task-1:0123abcd',
});

describe('Hermes\' approval prompt shows the call visibly (real plugin, real daemon)', function () {
  this.timeout(60_000);
  let daemon: Daemon;
  let plugin: PluginDriver;

  beforeEach(async () => {
    daemon = await startDaemon();
    plugin = PluginDriver.start({ TOLLGATE_SOCKET: daemon.socket, TOLLGATE_TIMEOUT_MS: '3000', TOLLGATE_DRIVER_PROMPT: 'deny' });
    expect(await plugin.status()).to.deep.include({ state: 'active' });
    await plugin.hook('pre_llm_call', { session_id: 's1', task_id: 'task-1', turn_id: 's1:task-1:0123abcd', user_message: 'clean the build folder', platform: 'cli' });
  });

  afterEach(async () => {
    await plugin.stop();
    await daemon.stop();
  });

  it('an escape sequence and a direction override in a command arrive escaped, as the daemon rendered them', async () => {
    const spoofed = await plugin.hook('pre_tool_call', call('terminal', { command: 'rm -r build/ # \x1b[2K\x1b[1Gls -la' }, 'c1')) as Record<string, string>;
    await plugin.hook('pre_tool_call', call('terminal', { command: 'rm -r build/ # \u202edliub ruoy gnitsil' }, 'c2'));
    expect(spoofed['action']).to.equal('block'); // the stand-in answered deny
    const prompts = await plugin.prompts();
    expect(prompts.map(([display]) => display)).to.deep.equal(['rm -r build/ # \\x1b[2K\\x1b[1Gls -la', 'rm -r build/ # \\u202edliub ruoy gnitsil']);
    for (const [display, description] of prompts) expect(raw.exec(display + description)?.[0]).to.equal(undefined);
    expect(prompts[0]![1]).to.match(/tollgate question \S+/);
  });
});
