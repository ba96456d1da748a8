import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { dockerConfigRuns, environmentPairs, loaderFileRow, loaderFileRows, settingValues, type LoaderLanguage } from '../../../../domain/gate/selfProtection/loaderFiles.ts';
import { unreadFileRun } from '../../../../domain/gate/selfProtection/loaderFileTexts.ts';
import { loaderFileCommandRule } from '../../../../domain/gate/selfProtection/loaderFileCommands.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

/** For each language: text that reaches the guard when the file is loaded, and an ordinary line. */
const texts: Readonly<Record<LoaderLanguage, { bad: string; good: string }>> = {
  shell: { bad: 'tollgate approve a1 always\n', good: "alias ll='ls -l'\n" },
  python: { bad: "import os; os.system('tollgate approve a1 always')\n", good: 'import numpy as np\n' },
  code: { bad: '(shell-command "tollgate approve a1 always")\n', good: '(setq x 1)\n' },
  settings: { bad: 'command = "tollgate approve a1 always"\n', good: 'add_newline = false\n' },
  environment: { bad: 'LD_PRELOAD=/tmp/e.so\n', good: 'FOO=1\n' },
  docker: { bad: '{"credsStore": "/tmp/h"}\n', good: '{"auths": {}, "credsStore": "desktop"}\n' },
};

describe('files a program loads at its next start, judged by their text (loaderFiles.ts, real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const blocks = (tool: string, args: Record<string, unknown>) => {
    const shell = tool === 'terminal' ? analyze(String(args['command'])) : null;
    return findSelfProtection({ tool, args, shell, protection: exampleFacts }).filter((f) => f.verdict === 'block');
  };
  const terminal = (command: string) => blocks('terminal', { command });

  for (const row of loaderFileRows) {
    describe(`${row.name} (${row.language})`, () => {
      const { bad, good } = texts[row.language];
      it('says why and has examples both ways', () => {
        expect(row.why).to.not.equal('');
        expect(row.stops).to.have.length.greaterThan(0);
        expect(row.allows).to.have.length.greaterThan(0);
      });
      for (const path of row.stops) {
        it(`knows ${path} as loaded at start`, () => expect(loaderFileRow(path, '/home/agent')?.name).to.equal(row.name));
        it(`blocks write_file of ${path} with text that reaches the guard`, () => expect(blocks('write_file', { path, content: bad })).to.have.length.greaterThan(0));
        it(`blocks an append to ${path} with text that reaches the guard`, () => expect(terminal(`printf '%s' '${bad.trim()}' >> '${path}'`)).to.have.length.greaterThan(0));
        it(`blocks a copy into ${path} from a file the floor cannot read`, () => expect(terminal(`cp /srv/unread '${path}'`)).to.have.length.greaterThan(0));
        it(`allows write_file of ${path} with an ordinary line`, () => expect(blocks('write_file', { path, content: good })).to.deep.equal([]));
      }
      for (const path of row.allows) it(`leaves ${path} to the other rules`, () => expect(loaderFileRow(path, '/home/agent')).to.equal(null));
    });
  }

  it('reads a glob in the last name as any known file it matches (a loop variable over `~/.ba*rc`)', () => {
    expect(loaderFileRow('~/.ba*rc', null)?.name).to.equal('shell-startup');
    expect(loaderFileRow('/home/agent/.z[sp]*', '/home/agent')?.name).to.equal('shell-startup');
    expect(loaderFileRow('/home/agent/notes/*.md', '/home/agent')).to.equal(null);
    expect(loaderFileRow('/home/agent/.[', '/home/agent')).to.equal(null);
  });

  it('reads `~`, $HOME and a path relative to the working folder as the home does', () => {
    expect(loaderFileRow('~/.emacs', null)?.name).to.equal('emacs-init');
    expect(loaderFileRow('$HOME/.config/autostart/x.desktop', null)?.name).to.equal('x-autostart');
    expect(loaderFileRow('init.el', '/home/agent', '/home/agent/.emacs.d')?.name).to.equal('emacs-init');
    expect(loaderFileRow('etc/profile.d/x.sh', '/home/agent', null)).to.equal(null);
  });

  it('reads a code file by its literals glued and spaced (concat, a process call with its arguments apart)', () => {
    expect(blocks('write_file', { path: '~/.emacs', content: '(shell-command (concat "toll" "gate approve a1 always"))' })).to.have.length.greaterThan(0);
    expect(blocks('write_file', { path: '~/.emacs', content: '(call-process "pkill" nil nil nil "-f" "tollgate serve")' })).to.have.length.greaterThan(0);
  });

  it('refuses a loader file that sources, loads or runs from a temporary folder any later call may fill', () => {
    for (const [path, content] of [['~/.xprofile', '. /tmp/e.sh'], ['~/.emacs', '(load "/tmp/e.el")'], ['~/.config/autostart/x.desktop', 'Exec=/tmp/run.sh']])
      expect(blocks('write_file', { path, content }), path).to.have.length.greaterThan(0);
    expect(blocks('write_file', { path: '~/.xprofile', content: '. ~/.bash_aliases' })).to.deep.equal([]);
  });

  it("refuses a program's output streamed into a loader file, except an installed program printing its own completion or shell hook", () => {
    expect(terminal('mytool --dump >> ~/.xprofile')).to.have.length.greaterThan(0);
    expect(terminal('/tmp/x completion bash > ~/.local/share/bash-completion/completions/x')).to.have.length.greaterThan(0);
    expect(terminal('kubectl completion bash > ~/.local/share/bash-completion/completions/kubectl')).to.deep.equal([]);
    expect(terminal('direnv hook zsh >> ~/.zshrc')).to.deep.equal([]);
  });

  it('refuses a folder of loader files copied in whole (its files unread)', () => {
    expect(terminal('cp -r /srv/auto ~/.config/autostart')).to.have.length.greaterThan(0);
    expect(terminal('cp -r /srv/done ~/.config/autostart-old')).to.deep.equal([]);
  });

  it("reads a settings file's values as command lines, and runs of an unread file in its command keys", () => {
    expect(settingValues('Exec=pkill -f tollgate\n- entry: "tollgate approve x"\nname = x')).to.equal('pkill -f tollgate\ntollgate approve x\nx');
    expect(blocks('write_file', { path: '.pre-commit-config.yaml', content: 'repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: /srv/h.sh\n' })).to.have.length.greaterThan(0);
    expect(blocks('write_file', { path: '.pre-commit-config.yaml', content: 'repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: ./scripts/lint.sh\n' })).to.deep.equal([]);
  });

  it('reads NAME=VALUE lines (export, pam DEFAULT=) and judges loader and command variables in them', () => {
    expect(environmentPairs('export A=1\nB DEFAULT="x y"\n#env\n')).to.deep.equal([{ name: 'A', value: '1' }, { name: 'B', value: 'x y' }]);
    expect(blocks('write_file', { path: '~/.lesskey', content: '#env\nLESSOPEN=|/srv/lp.sh %s\n' })).to.have.length.greaterThan(0);
    expect(blocks('write_file', { path: '~/.lesskey', content: '#env\nLESSOPEN=| /usr/bin/lesspipe %s\n' })).to.deep.equal([]);
  });

  it('names the docker credential helpers and plugin folders that run a program the floor cannot read', () => {
    expect(dockerConfigRuns('{"credsStore": "../../tmp/e"}')).to.not.equal(null);
    expect(dockerConfigRuns('{"credHelpers": {"gcr.io": "/srv/h"}}')).to.not.equal(null);
    expect(dockerConfigRuns('{"cliPluginsExtraDirs": ["/srv/p"]}')).to.not.equal(null);
    expect(dockerConfigRuns('{"credsStore": x}')).to.not.equal(null);
    expect(dockerConfigRuns('{"credHelpers": {"gcr.io": "gcloud"}, "cliPluginsExtraDirs": ["/usr/lib/docker/cli-plugins"]}')).to.equal(null);
    expect(dockerConfigRuns('{"auths": {}}')).to.equal(null);
  });

  it('names the file a command line runs that is not the system\'s or the project\'s own', () => {
    expect(unreadFileRun('|/tmp/lp.sh %s')).to.equal('/tmp/lp.sh');
    expect(unreadFileRun('sh ~/x.sh')).to.equal('~/x.sh');
    expect(unreadFileRun('!/srv/a')).to.equal('/srv/a');
    expect(unreadFileRun('/usr/bin/vim')).to.equal(null);
    expect(unreadFileRun('code --wait')).to.equal(null);
    expect(unreadFileRun('./scripts/lint.sh')).to.equal(null);
    expect(unreadFileRun('sh -c "x"')).to.equal(null);
  });

  describe(loaderFileCommandRule.name, () => {
    for (const line of loaderFileCommandRule.stops) it(`blocks: ${line}`, () => expect(terminal(line)).to.have.length.greaterThan(0));
    for (const line of loaderFileCommandRule.allows) it(`allows: ${line}`, () => expect(terminal(line)).to.deep.equal([]));
  });

  it('judges a code cell that writes a loader file, and the lines a diff adds to one', () => {
    expect(blocks('execute_code', { code: "open('/home/agent/.emacs','a').write('(shell-command \"tollgate approve a1 always\")')" })).to.have.length.greaterThan(0);
    expect(blocks('execute_code', { code: "import shutil\nshutil.copy('/srv/x', '/home/agent/.xprofile')" })).to.have.length.greaterThan(0);
    expect(blocks('execute_code', { code: "print(open('/home/agent/.emacs').read())" })).to.deep.equal([]);
    expect(blocks('patch', { mode: 'patch', patch: '--- a/.envrc\n+++ b/.envrc\n@@ -1 +1,2 @@\n export FOO=1\n+tollgate approve a1 always\n' })).to.have.length.greaterThan(0);
    expect(blocks('patch', { mode: 'patch', patch: '--- a/.envrc\n+++ b/.envrc\n@@ -1 +1,2 @@\n export FOO=1\n+export BAR=2\n' })).to.deep.equal([]);
  });

  it('judges a source copied into a loader file in the language of the file it becomes', () => {
    const run = (line: string, scripts: Record<string, string>) => findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, scripts }).filter((f) => f.verdict === 'block');
    expect(run('cp /home/agent/dots/x.desktop /home/agent/.config/autostart/', { '/home/agent/dots/x.desktop': "[Desktop Entry]\nExec=pkill -f 'tollgate serve'\n" })).to.have.length.greaterThan(0);
    expect(run('cp /home/agent/dots/x.desktop /home/agent/.config/autostart/', { '/home/agent/dots/x.desktop': '[Desktop Entry]\nExec=/usr/bin/nm-applet\n' })).to.deep.equal([]);
    expect(run('ln -s /home/agent/dots/emacs /home/agent/.emacs', { '/home/agent/dots/emacs': '(call-process "tollgate" nil nil nil "approve" "a1" "always")\n' })).to.have.length.greaterThan(0);
  });

  it('judges the .envrc that direnv allow takes in: the one on disk, or written on the line', () => {
    const line = 'direnv allow /home/agent/p';
    const scripts = { '/home/agent/p/.envrc': 'tollgate approve a1 always\n' };
    expect(findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, scripts }).filter((f) => f.verdict === 'block')).to.have.length.greaterThan(0);
    const good = { '/home/agent/p/.envrc': 'export FOO=1\n' };
    expect(findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, scripts: good }).filter((f) => f.verdict === 'block')).to.deep.equal([]);
  });
});

describe('variables exported for later programs that load an unread file or startup folder (exportedLoaders.ts)', () => {
  const analyze = useBashAnalyzer();
  const blocked = (line: string) => findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).some((f) => f.verdict === 'block');
  const stops = ["export EDITOR=/srv/ed.sh", "export LESSOPEN='|/srv/lp.sh %s'", "export LESSOPEN='|tollgate approve a1 always %s'", "export GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='/srv/fs.sh'\"",
    'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=/srv/fs.sh', 'export ZDOTDIR=/srv/z', 'export XDG_CONFIG_HOME=/srv/cfg', 'export GIT_EXEC_PATH=/srv/g',
    'export INPUTRC=/srv/inputrc', "export VIMINIT='so /srv/x.vim'", 'export LUA_INIT=@/srv/x.lua', 'export DOCKER_CONFIG=/srv/d', "PS1='$(tollgate approve a1 always)'",
    "PROMPT_COMMAND='tollgate approve a1 always'", 'read EDITOR; export EDITOR', 'export GIT_PAGER=$MYPAGER'];
  const allows = ['export EDITOR=/usr/bin/vim', "export EDITOR='code --wait'", 'export XDG_CONFIG_HOME=$HOME/.config', 'export XDG_CONFIG_HOME=/home/agent/.config', "export PS1='\\u@\\h:\\w\\$ '",
    "export VIMINIT='set nocompatible'", 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.signingkey GIT_CONFIG_VALUE_0=/srv/key.pub', 'export INPUTRC=~/.inputrc',
    "export LESSOPEN='| /usr/bin/lesspipe %s'", "export PROMPT_COMMAND='history -a'", 'export XDG_DATA_DIRS=/usr/local/share:/usr/share',
    'export GIT_PAGER=$PAGER', 'export VISUAL="$EDITOR"', 'export PAGER', 'export XDG_CONFIG_HOME'];
  for (const line of stops) it(`blocks: ${line}`, () => expect(blocked(line)).to.equal(true));
  for (const line of allows) it(`allows: ${line}`, () => expect(blocked(line)).to.equal(false));
});
