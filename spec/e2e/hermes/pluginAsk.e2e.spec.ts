/**
 * A dangerous command goes to ask, in a real Hermes 0.19 conversation through the tollgate plugin. Hermes runs with
 * `approvals.mode: off`, so its own dangerous-command prompt is out of the way and only tollgate stands between the
 * model and `rm -r`.
 *
 * Two ways to ask, as the plugin offers them:
 *
 * A. `TOLLGATE_HERMES_PROMPT=never`: the plugin asks the daemon with `approve_directive: false`; the ask comes back
 *    as a block saying a human was asked (never the question's id nor how to answer it), a person answers it outside
 *    Hermes on the human socket (server.human_socket), and the agent's retry passes exactly once (resumption
 *    `retry`). One conversation, the same command each time (`rm -r <work>/victim`):
 *   1. asked → blocked, victim kept; the model hears that a human was asked;
 *   2. (answered `once` with `tollgate approve <id> once`, which uses the human socket) the retry → runs, victim gone;
 *   3. (victim re-created) the same command again → asks again, a new question, victim kept;
 *   4. (that question answered `deny` over POST /v1/approvals/<id> on the human socket) the retry → not run.
 *
 * B. `TOLLGATE_HERMES_PROMPT=always`: the plugin puts the question on Hermes' own approval prompt
 *    (tools/approval.py `prompt_dangerous_approval`, its input() fallback since `-q` shows no prompt UI), the person
 *    answers there (here: on Hermes' stdin), the answer is recorded as ApprovalAnswered and the held call runs or not.
 * C. The default (`auto`) under `hermes chat -q`: no prompt is on screen, so the plugin must not hand the question
 *    to one; it comes back as a block, as in A.
 */
import { expect } from 'chai';
import { useHermes } from './support/hermesVenv.ts';
import { ofType, type RecordedTollgateEvent } from './support/tollgateDaemon.ts';
import { converse, openWorld, toolResult, type Conversation, type World } from './support/world.ts';
import { runCli } from '../../support/runCli.ts';
import { requestOverSocket } from '../../support/httpClient.ts';

/** The human channel of the test's daemon (relative to its folder), configured in its tollgate.yaml. */
const humanChannel = () => 'server:\n  human_socket: ./human/human.sock\n';

interface Step { readonly victimBefore: boolean; readonly note?: string }

describe('Hermes 0.19 + tollgate plugin: ask, approve once (tollgate approve), ask again, deny', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  let events: RecordedTollgateEvent[];
  let command: string;
  const steps: Step[] = [];
  const answered: { once?: string; deny?: string; approveCli?: string } = {};

  /** The one open question, as a person would list it (the projection may be a moment behind the ledger). */
  const openQuestion = async (): Promise<string> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const answer = await world.daemon!.request('GET', '/v1/approvals');
      const approvals = ((answer.json as { approvals?: unknown[] } | null)?.approvals ?? []) as Record<string, unknown>[];
      const ids = approvals.map((a) => a.approvalId).filter((id): id is string => typeof id === 'string');
      if (ids.length === 1) return ids[0]!;
      if (ids.length > 1 || Date.now() > deadline) throw new Error(`expected one open question, found ${ids.length}: ${answer.text}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  };

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-ask', tollgateConfig: humanChannel });
    const victim = world.makeVictim('victim');
    command = `rm -r ${victim}`;
    conversation = await converse(world, {
      install: hermes.current,
      userText: 'Remove the victim folder.',
      env: { TOLLGATE_HERMES_PROMPT: 'never' },
      script: [
        { id: 'call_ask', tool: 'terminal', args: { command } },
        {
          id: 'call_retry_after_once', tool: 'terminal', args: { command },
          before: async () => {
            steps.push({ victimBefore: world.exists('victim') });
            answered.once = await openQuestion();
            const cli = await runCli(['approve', answered.once, 'once'], { cwd: world.temp.path });
            answered.approveCli = `${cli.exitCode} ${cli.stdout}${cli.stderr}`;
            if (cli.exitCode !== 0) throw new Error(`tollgate approve failed: ${answered.approveCli}`);
          },
        },
        {
          id: 'call_again', tool: 'terminal', args: { command },
          before: () => {
            steps.push({ victimBefore: world.exists('victim') });
            world.makeVictim('victim');
          },
        },
        {
          id: 'call_retry_after_deny', tool: 'terminal', args: { command },
          before: async () => {
            steps.push({ victimBefore: world.exists('victim') });
            answered.deny = await openQuestion();
            const answer = await requestOverSocket(world.temp.file('human', 'human.sock'), 'POST', `/v1/approvals/${answered.deny}`, { answer: 'deny', answered_by: 'e2e-test' });
            if (answer.status !== 200) throw new Error(`deny failed: ${answer.status} ${answer.text}`);
          },
        },
        { text: 'Ask flow over.', before: () => { steps.push({ victimBefore: world.exists('victim') }); } },
      ],
    });
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  const decisions = () => ofType(events, 'ToolCallDecided').filter((e) => e.data.args.command === command);

  it('asks instead of running: blocked, not executed, and the model hears a human was asked — not the id, not the command', () => {
    const { run } = conversation;
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(world.model.failures.map(String), run.describe()).to.deep.equal([]);
    expect(steps[0]?.victimBefore, `rm -r ran without an answer\n${run.describe()}`).to.equal(true);
    const first = decisions()[0];
    expect(first?.data.verdict, run.describe()).to.equal('ask');
    expect(first?.data.reasons).to.include('dangerous:recursive-delete');
    const requested = ofType(events, 'ApprovalRequested');
    expect(requested[0]?.data.approvalId).to.equal(answered.once);
    expect(requested[0]?.data.resumption).to.equal('retry');
    const error = toolResult(world.model, 'call_ask')?.json?.error;
    expect(error, run.describe()).to.be.a('string');
    expect(error as string).to.contain('A human has been asked').and.not.contain(answered.once!).and.not.contain('tollgate approve');
    const answeredOnce = ofType(events, 'ApprovalAnswered').find((e) => e.data.approvalId === answered.once);
    expect(answeredOnce?.data.answeredBy).to.equal('human-socket');
  });

  it('approved once: the retried call runs, exactly once', () => {
    const { run } = conversation;
    expect(steps[1]?.victimBefore, `the retry after "once" did not run\n${run.describe()}`).to.equal(false);
    const retry = decisions()[1];
    expect(retry?.data.verdict, run.describe()).to.equal('allow');
    expect(retry?.data.grantId).to.be.a('string');
    const consumed = ofType(events, 'GrantConsumed');
    expect(consumed.map((e) => e.data.grantId)).to.deep.equal([retry!.data.grantId]);
    expect(toolResult(world.model, 'call_retry_after_once')?.json?.exit_code, run.describe()).to.equal(0);
  });

  it('a second identical call asks again', () => {
    const { run } = conversation;
    expect(steps[2]?.victimBefore, `the second identical call ran on the spent grant\n${run.describe()}`).to.equal(true);
    const again = decisions()[2];
    expect(again?.data.verdict, run.describe()).to.equal('ask');
    expect(answered.deny).to.be.a('string').and.not.equal(answered.once);
    expect(toolResult(world.model, 'call_again')?.json?.error as string).to.contain('A human has been asked').and.not.contain(answered.deny!);
  });

  it('denied: the call does not run', () => {
    const { run } = conversation;
    expect(steps[3]?.victimBefore, `ran after "deny"\n${run.describe()}`).to.equal(true);
    const deny = ofType(events, 'ApprovalAnswered').find((e) => e.data.approvalId === answered.deny);
    expect(deny?.data.answer).to.equal('deny');
    expect(deny?.data.callAllowed).to.equal(false);
    const afterDeny = decisions()[3];
    expect(afterDeny?.data.verdict, run.describe()).to.not.equal('allow');
    expect(toolResult(world.model, 'call_retry_after_deny')?.json?.error, run.describe()).to.be.a('string');
    expect(run.stdout).to.contain('Ask flow over.');
  });
});

describe('Hermes 0.19 + tollgate plugin: ask on Hermes\' own approval prompt, answered there', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  let events: RecordedTollgateEvent[];
  let first: string;
  let second: string;
  const seen: Record<string, boolean> = {};

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-prompt' });
    first = `rm -r ${world.makeVictim('victim-once')}`;
    second = `rm -r ${world.makeVictim('victim-deny')}`;
    conversation = await converse(world, {
      install: hermes.current,
      env: { TOLLGATE_HERMES_PROMPT: 'always' },
      // The person at Hermes' prompt: "o" (once) to the first question, "d" (deny) to the second.
      stdin: 'o\nd\n',
      userText: 'Remove both victim folders.',
      script: [
        { id: 'call_once', tool: 'terminal', args: { command: first } },
        { id: 'call_deny', tool: 'terminal', args: { command: second }, before: () => { seen.onceRan = !world.exists('victim-once'); } },
        { text: 'Prompt flow over.' },
      ],
    });
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  it('puts the question on Hermes\' prompt; "once" there runs the held call, recorded as the answer', () => {
    const { run } = conversation;
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(seen.onceRan, `not run after "once"\n${run.describe()}`).to.equal(true);
    const requested = ofType(events, 'ApprovalRequested');
    expect(requested.map((e) => e.data.resumption), run.describe()).to.deep.equal(['held', 'held']);
    const answered = ofType(events, 'ApprovalAnswered');
    // Recorded as what the channel proved: the registered plugin relaying Hermes' own CLI prompt.
    const registration = ofType(events, 'RuntimeRegistered')[0]?.data.registrationId;
    expect(answered.map((e) => [e.data.approvalId, e.data.answer, e.data.callAllowed, e.data.answeredBy]), run.describe()).to.deep.equal([
      [requested[0]!.data.approvalId, 'once', true, `runtime-prompt:${registration}/hermes-cli`],
      [requested[1]!.data.approvalId, 'deny', false, `runtime-prompt:${registration}/hermes-cli`],
    ]);
    expect(toolResult(world.model, 'call_once')?.json?.exit_code, run.describe()).to.equal(0);
  });

  it('"deny" there: not run', () => {
    const { run } = conversation;
    expect(world.exists('victim-deny'), `ran after "deny"\n${run.describe()}`).to.equal(true);
    expect(toolResult(world.model, 'call_deny')?.json?.error, run.describe()).to.be.a('string').and.match(/denied/i);
    expect(ofType(events, 'GrantIssued')).to.deep.equal([]);
  });
});

describe('Hermes 0.19 + tollgate plugin: `hermes chat -q` has no prompt on screen', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let conversation: Conversation;
  let events: RecordedTollgateEvent[];
  let pending: string[] = [];

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-noprompt' });
    const command = `rm -r ${world.makeVictim('victim')}`;
    conversation = await converse(world, {
      install: hermes.current,
      userText: 'Remove the victim folder.',
      script: [{ id: 'call_asked', tool: 'terminal', args: { command } }, {
        text: 'No-prompt flow over.',
        before: async () => {
          const answer = await world.daemon!.request('GET', '/v1/approvals');
          pending = ((answer.json as { approvals?: { approvalId: string }[] } | null)?.approvals ?? []).map((a) => a.approvalId);
        },
      }],
    });
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  // hermes chat -q installs the CLI approval callback (hermes_cli/cli_agent_setup_mixin.py:239) but runs no prompt UI,
  // so a question put there would wait out approvals.timeout unseen and come back as deny (cli.py:11375-11450).
  it('does not ask an invisible prompt: the question comes back at once as a block (without its id), and stays open', () => {
    const { run } = conversation;
    expect(world.exists('victim'), run.describe()).to.equal(true);
    expect(run.stdout, run.describe()).to.not.contain('Timeout');
    const requested = ofType(events, 'ApprovalRequested');
    expect(requested.map((e) => e.data.resumption), run.describe()).to.deep.equal(['retry']);
    expect(ofType(events, 'ApprovalAnswered')).to.deep.equal([]);
    expect(pending).to.deep.equal([requested[0]!.data.approvalId]);
    expect(toolResult(world.model, 'call_asked')?.json?.error as string, run.describe()).to.contain('A human has been asked').and.not.contain(requested[0]!.data.approvalId);
  });
});
