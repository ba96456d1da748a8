/**
 * The session follows its terminal's directory (red team 2, R1): folded from allowed terminal calls, known only
 * when the line says plainly where it ends, unknown for anything unclear. Lines are parsed by the real bash grammar.
 */
import { expect } from 'chai';
import { decide } from '../../../domain/session/decide.ts';
import { evolve } from '../../../domain/session/evolve.ts';
import { initialState, type SessionState } from '../../../domain/session/sessionState.ts';
import { noProtectionFacts } from '../../../domain/gate/selfProtection/protectionFacts.ts';
import { actionFingerprint } from '../../../domain/tools/actionFingerprint.ts';
import type { ShellAnalysis } from '../../../domain/shell/shellAnalysis.ts';
import { sharedBashAnalyzer } from '../../../ops/runtime/sharedAnalyzer.ts';
import { proposeTerminal, sessionStarted, userMessageReceived } from '../../support/sessionFixtures.ts';

const home = '/home/agent';
/** The folders that exist (the gate looks them up before decide). */
const dirs = ['/srv/app', '/srv/app/data', '/srv/app/data/data', '/srv/app/data/keys', home, `${home}/.hermes`, '/tmp', '/tmp/project'];

let analyze: (line: string) => ShellAnalysis;
before(async () => {
  const analyzer = await sharedBashAnalyzer();
  analyze = (line) => analyzer.analyze(line);
});

const opened = (): SessionState => [sessionStarted(), userMessageReceived()].reduce(evolve, initialState());

/** Runs terminal lines in order (each reported from `reported`), returning the tracked directory after each. */
const run = (lines: readonly (string | { command: string; workdir: string })[], reported: string | null = '/work', verdictFor?: string): (string | null | undefined)[] => {
  let state = opened();
  const seen: (string | null | undefined)[] = [];
  lines.forEach((entry, i) => {
    const { command, workdir } = typeof entry === 'string' ? { command: entry, workdir: undefined } : entry;
    const cwd = state.status === 'open' && state.terminalCwd !== undefined ? state.terminalCwd : reported;
    const call = proposeTerminal(command, {
      callId: `call-${i}`, approvalId: `approval-${i}`, shell: analyze(command), args: workdir === undefined ? { command } : { command, workdir },
      fingerprint: actionFingerprint('terminal', { commandLine: command }),
      protection: { ...noProtectionFacts, home, hermesHome: `${home}/.hermes` }, pathFacts: { cwd, links: {}, dirs },
      settings: { approvals: { mode: verdictFor === 'ask' ? 'manual' : 'off', yolo: false, timeoutSeconds: 60, smartModelConfigured: false } },
    });
    state = decide(call, state).reduce(evolve, state);
    seen.push(state.status === 'open' ? state.terminalCwd : undefined);
  });
  return seen;
};

describe("the session's terminal directory (folded from allowed terminal calls)", () => {
  it('is not tracked until a call moves the terminal, so the runtime-reported cwd stands', () => {
    expect(run(['ls -la', 'cat README.md'])).to.deep.equal([undefined, undefined]);
  });

  it('follows an absolute cd, a relative one from there, and keeps it across calls', () => {
    expect(run(['cd /srv/app', 'cd data', 'cat keys/runtime-registrations.json', 'cd ..'])).to.deep.equal(['/srv/app', '/srv/app/data', '/srv/app/data', '/srv/app']);
  });

  it('resolves a relative cd against the reported cwd before anything is tracked', () => {
    expect(run(['cd data'], '/srv/app')).to.deep.equal(['/srv/app/data']);
  });

  it('takes cd with no argument, ~ and ~/x as the home', () => {
    expect(run(['cd /tmp', 'cd', 'cd /tmp', 'cd ~', 'cd ~/.hermes'])).to.deep.equal(['/tmp', home, '/tmp', home, `${home}/.hermes`]);
  });

  it('ends at the last cd of a plain chain and ignores the commands after it', () => {
    expect(run(['cd /srv/app && cd data && ls -la && echo done'])).to.deep.equal(['/srv/app/data']);
  });

  it('resolves $HOME and $HERMES_HOME as the gate knows them, and follows pushd DIR like cd (red team 3, F1)', () => {
    expect(run(['cd $HERMES_HOME', 'cd /tmp', 'cd "${HOME}"', 'cd $HOME/.hermes', 'pushd /srv/app', 'pushd data'])).to.deep.equal(
      [`${home}/.hermes`, '/tmp', home, `${home}/.hermes`, '/srv/app', '/srv/app/data']);
  });

  for (const line of ['cd "$X"', 'cd $(cat /tmp/where)', 'cd -', 'pushd', 'pushd +1', 'popd', 'cd $HOMEDIR', 'cd $HERMES_HOME_X', 'source ./env.sh', '. ./env.sh',
    'cd /srv/app | cat', '(cd /srv/app)', 'cd /srv/app || cd /tmp', 'test -d x && cd /srv/app', 'mkdir -p out && cd out',
    'if true; then cd /srv/app; fi', 'cd /srv/app &', 'eval "cd /srv/app"', 'bash -c "cd /srv/app"', 'cd /does/not/exist',
    'cd /srv/app; $CMD /tmp', 'CDPATH=/srv/app; cd data', 'cd ~bob', 'cd /srv/app && cd "$X"']) {
    it(`becomes unknown after \`${line}\` (unclear where the terminal ends)`, () => {
      expect(run(['cd /tmp/project', line]).at(-1)).to.equal(null);
    });
  }

  it('stays unknown through relative moves and becomes known again with an absolute cd', () => {
    expect(run(['cd "$X"', 'cd data', 'ls', 'cd /srv/app'])).to.deep.equal([null, null, null, '/srv/app']);
  });

  it("starts a call in its absolute workdir, and the terminal stays there (Hermes records pwd after the command)", () => {
    expect(run([{ command: 'ls', workdir: '/srv/app' }, { command: 'cd data', workdir: '/srv/app' }, 'ls'])).to.deep.equal(['/srv/app', '/srv/app/data', '/srv/app/data']);
  });

  it('makes a relative or missing workdir unknown', () => {
    expect(run([{ command: 'ls', workdir: 'sub' }])).to.deep.equal([null]);
    expect(run([{ command: 'ls', workdir: '/nowhere' }])).to.deep.equal([null]);
  });

  it('is unknown after the same relative cd twice in a row (one call guarded by the plugin and the shell hook)', () => {
    expect(run(['cd /srv/app', 'cd data', 'cd data'])).to.deep.equal(['/srv/app', '/srv/app/data', null]);
  });

  it('keeps an absolute cd decided twice in a row (running it twice ends in the same place)', () => {
    expect(run(['cd /srv/app', 'cd /srv/app'])).to.deep.equal(['/srv/app', '/srv/app']);
  });

  it('is unknown after an asked call that moves (it may run after an answer, or never)', () => {
    expect(run(['cd /srv/app && rm -rf build'], '/work', 'ask')).to.deep.equal([null]);
  });

  it('is unchanged by a blocked call', () => {
    expect(run(['cd /srv/app', 'cd / && rm -rf --no-preserve-root /'])).to.deep.equal(['/srv/app', '/srv/app']);
  });

  it('follows a symlink to where it leads, as Hermes records `pwd -P`', () => {
    let state = opened();
    const call = proposeTerminal('cd /tmp/link', {
      shell: analyze('cd /tmp/link'), protection: { ...noProtectionFacts, home },
      pathFacts: { cwd: '/work', links: { '/tmp/link': '/srv/app/data' }, dirs: ['/tmp/link'] },
    });
    state = decide(call, state).reduce(evolve, state);
    expect(state.status === 'open' && state.terminalCwd).to.equal('/srv/app/data');
  });
});
