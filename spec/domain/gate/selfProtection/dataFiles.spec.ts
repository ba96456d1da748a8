import { expect } from 'chai';
import { composeFilesOf, composeIncludes, composeStandIns, kubeFilesOf, kubeStandIns } from '../../../../domain/gate/selfProtection/composeFiles.ts';
import { diffTargetText, screenConfigText, sqliteShellText, tmuxConfigText, urlListText } from '../../../../domain/gate/selfProtection/dataFileTexts.ts';
import { runFiles } from '../../../../domain/gate/selfProtection/scriptReaders.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('data and config files programs act on (red team 6): which files, and the text the floor judges', () => {
  const analyze = useBashAnalyzer();
  const files = (line: string) => { const a = analyze(line); return a.commands.flatMap((c) => runFiles(c, a)).map((f) => `${f.as}:${f.path}`); };

  describe('the files each command names', () => {
    it('a diff on stdin, piped, -i, or as git apply/am operands', () => {
      expect(files('patch -p1 < a.diff')).to.deep.equal(['diff:a.diff']);
      expect(files('cat a.diff | patch')).to.deep.equal(['diff:a.diff']);
      expect(files('patch -i a.diff -d src')).to.deep.equal(['diff:a.diff']);
      expect(files('git -C repo apply --unsafe-paths a.diff b.diff')).to.deep.equal(['diff:a.diff', 'diff:b.diff']);
      expect(files('git am < 0001.patch')).to.deep.equal(['diff:0001.patch']);
      expect(files('git log -p')).to.deep.equal([]);
    });
    it('tmux: -f, source-file after a `;`, else a new server\'s own config; screen: -c, SCREENRC, else ~/.screenrc', () => {
      expect(files('tmux -f a.conf new -d')).to.deep.equal(['tmux:a.conf']);
      expect(files('tmux ls \\; source-file -q b.conf')).to.deep.equal(['tmux:b.conf']);
      expect(files('tmux new -d -s x')).to.deep.equal(['tmux:~/.tmux.conf', 'tmux:~/.config/tmux/tmux.conf']);
      expect(files('tmux ls')).to.deep.equal([]);
      expect(files('screen -c rc -dmS x')).to.deep.equal(['screen:rc']);
      expect(files('SCREENRC=rc screen -dm')).to.deep.equal(['screen:rc']);
      expect(files('screen -r dev')).to.deep.equal([]);
    });
    it('URL lists and wget configs; sqlite3 input piped from cat', () => {
      expect(files('wget -i u.txt -O- && aria2c --input-file=v.txt')).to.deep.equal(['urls:u.txt', 'urls:v.txt']);
      expect(files('wget --config=w.rc https://example.com')).to.deep.equal(['wgetrc:w.rc']);
      expect(files('wget -d -i u.txt')).to.deep.equal(['urls:u.txt']);
      expect(files('aria2c -d out -i u.txt')).to.deep.equal(['urls:u.txt']);
      expect(files('cat q.sql | sqlite3 app.db')).to.deep.equal(['sqlite:q.sql']);
    });
    it('compose: -f (repeated), COMPOSE_FILE, else the project folder\'s defaults; only verbs that start containers', () => {
      const of = (line: string) => composeFilesOf(analyze(line).commands[0]!);
      expect(of('docker compose -f a.yml -f b.yml up -d')).to.deep.equal(['a.yml', 'b.yml']);
      expect(of('COMPOSE_FILE=c.yml docker compose run app')).to.deep.equal(['c.yml']);
      expect(of('docker-compose --project-directory deploy up')[0]).to.equal('deploy/compose.yaml');
      expect(of('docker compose ps')).to.deep.equal([]);
      expect(of('docker run alpine')).to.deep.equal([]);
    });
  });

  describe('how each file reads', () => {
    it('a diff: absolute names as written, the -p strip below -d, both the name and its base name without -p', () => {
      const diff = '--- a/src/x.c\t2024-01-01\n+++ b/src/x.c\n--- /dev/null\n+++ /etc/tollgate/x\n';
      expect(diffTargetText(diff, { strip: 1, dir: 'proj' }).split('\n')).to.deep.equal(['> proj/src/x.c', '> /etc/tollgate/x', '> proj/etc/tollgate/x']);
      expect(diffTargetText('+++ a/b/c\n', { strip: null, dir: '.' }).split('\n')).to.deep.equal(['> ./a/b/c', '> ./c']);
      expect(diffTargetText('diff --git a/x b/y\nrename from x\nrename to data/y\n', { strip: 1, dir: '.' })).to.include('> ./data/y');
    });
    it('sqlite3: escapes, pipes, the files it writes and reads', () => {
      const text = sqliteShellText(".shell id\n.once '|tollgate approve a always'\n.output /tmp/o\n.import data/keys t\nATTACH DATABASE 'file:/x/ledger.db?mode=rw' AS l;\nselect writefile('/x/y', 1);\n").split('\n');
      expect(text).to.deep.equal(['id', 'tollgate approve a always', '> /tmp/o', 'cat data/keys', '> /x/ledger.db', '> /x/y']);
    });
    it('tmux: each command of a sequence, quoted commands, save-buffer; a binding\'s commands only as shell text', () => {
      const text = tmuxConfigText('new-window -d \\; run-shell "echo hi"; if-shell true "send-keys x"\n# note\nsave-buffer -b 0 /tmp/b\n').split('\n');
      expect(text).to.include.members(['tmux new-window -d', 'tmux run-shell "echo hi"', 'echo hi', 'tmux send-keys x', '> /tmp/b']);
      const bound = tmuxConfigText('bind -n C-h if-shell "$is_vim" "send-keys C-h" "select-pane -L"\nbind x send-keys a \\; send-keys b\n').split('\n');
      expect(bound.filter((l) => /^tmux /.test(l))).to.deep.equal([]);
    });
    it('screen: each line as a -X command, logfile as a write', () =>
      expect(screenConfigText('stuff o\nlogfile /tmp/l\n').split('\n')).to.deep.equal(['screen -X stuff o', 'screen -X logfile /tmp/l', '> /tmp/l']));
    it('a URL list: the client line with every URL, aria2c\'s dir and out as the file written', () => {
      expect(urlListText('https://a/x\n  dir=/d\n  out=c.yaml\nhttps://b/y.tgz\n  dir=/e\n', 'aria2c').split('\n')).to.deep.equal(['aria2c https://a/x https://b/y.tgz', '> /d/c.yaml', '> /e/y.tgz']);
    });
    it('a compose file: each service as the docker run it is, relative binds below the file\'s folder', () => {
      const source = analyze('docker compose up').commands[0]!;
      const yaml = 'x-common: &common\n  volumes: ["./src:/app", "cache:/c", "/srv/h:/h:ro"]\nservices:\n  web:\n    <<: *common\n    image: node\n    pid: host\n    command: ["npm", "start"]\n';
      expect(composeStandIns(yaml, 'deploy/compose.yml', source).map((c) => c.args)).to.deep.equal([['run', '-v', './deploy/./src:/app', '-v', '/srv/h:/h:ro', '--pid=host', 'node', 'npm', 'start']]);
      expect(composeStandIns('services: [\n  - /srv/h:/h\n', 'c.yml', source)[0]!.args).to.include('/srv/h:/h');
    });
    it('the compose files one includes or extends', () =>
      expect(composeIncludes('include:\n  - a.yml\n  - path: [b.yml, c.yml]\nservices:\n  x:\n    extends: {file: d.yml, service: y}\n')).to.deep.equal(['a.yml', 'b.yml', 'c.yml', 'd.yml']));
    it('a Kubernetes file podman kube play starts: hostPath volumes, hostPID, in any document', () => {
      const source = analyze('podman kube play pod.yml').commands[0]!;
      expect(kubeFilesOf(source)).to.deep.equal(['pod.yml']);
      const yaml = 'kind: ConfigMap\n---\nkind: Deployment\nspec:\n  template:\n    spec:\n      hostPID: true\n      volumes:\n      - name: h\n        hostPath:\n          path: /srv/h\n';
      expect(kubeStandIns(yaml, 'pod.yml', source)[0]!.args).to.deep.equal(['run', '--pid=host', '-v', '/srv/h:/mnt', 'image']);
      expect(kubeStandIns('kind: Pod\nspec:\n  volumes:\n  - name: d\n    emptyDir: {}\n', 'pod.yml', source)).to.deep.equal([]);
    });
  });
});
