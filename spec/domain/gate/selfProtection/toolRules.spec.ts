import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { patchTargets } from '../../../../domain/gate/selfProtection/patchTargets.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';

const ids = (tool: string, args: Record<string, unknown>) =>
  findSelfProtection({ tool, args, shell: null, protection: exampleFacts }).map((f) => `${f.verdict}:${f.id}`);

describe('self-protection for file tools and code cells', () => {
  describe('write_file', () => {
    for (const path of [
      '/home/agent/project/tollgate.yaml', '~/.hermes/config.yaml', '$HERMES_HOME/.env', '/home/agent/.hermes/profiles/work/auth.json',
      '/home/agent/.hermes/plugins/tollgate/__init__.py', '/opt/tollgate/adapters/hooks/hookClient.mjs', 'data/projections/grants.json',
      '/home/agent/project/data/../data/ledger.db', '/home/agent//.hermes/./config.yaml', 'AGENTS.md', 'docs/SOUL.md', '.claude/settings.json',
      '/srv/hermes-bot/shell-hooks-allowlist.json', '$X/AGENTS.md', '$X/config.yaml',
    ]) it(`blocks a write to ${path}`, () => expect(ids('write_file', { path, content: 'x' })).to.include('block:write-protected-path'));

    for (const path of ['notes.md', 'src/app.ts', 'data/report.csv', 'config.yaml', '/tmp/out.txt', 'README.md', 'bin/run.sh'])
      it(`allows a write to ${path}`, () => expect(ids('write_file', { path, content: 'x' })).to.deep.equal([]));

    it('asks for a write elsewhere inside a Hermes home', () =>
      expect(ids('write_file', { path: '~/.hermes/memories/MEMORY.md', content: 'x' })).to.deep.equal(['ask:hermes-home-change']));
    it('blocks writing a script that talks to the socket, to be run later', () =>
      expect(ids('write_file', { path: 'approve.py', content: "s.connect('/home/agent/project/data/tollgate.sock')" })).to.include('block:socket-client'));
    it('blocks writing a script that posts to the loopback port', () =>
      expect(ids('write_file', { path: 'a.sh', content: 'curl -X POST http://127.0.0.1:8787/v1/approvals/x' })).to.include('block:socket-client'));
    it('asks for a cross_profile write', () =>
      expect(ids('write_file', { path: 'notes.md', content: 'x', cross_profile: true })).to.deep.equal(['ask:hermes-home-change']));
  });

  describe('patch', () => {
    const patch = (body: string) => ids('patch', { mode: 'patch', patch: `*** Begin Patch\n${body}\n*** End Patch` });
    it('blocks replace mode on a protected path', () => expect(ids('patch', { mode: 'replace', path: 'tollgate.yaml', old_string: 'a', new_string: 'b' })).to.include('block:write-protected-path'));
    it('blocks an Update File header', () => expect(patch('*** Update File: /home/agent/project/tollgate.yaml\n@@\n-yolo: false\n+yolo: true')).to.include('block:write-protected-path'));
    it('blocks an Add File header', () => expect(patch('*** Add File: ~/.hermes/plugins/evil/__init__.py\n+x')).to.include('block:write-protected-path'));
    it('blocks a Delete File header', () => expect(patch('*** Delete File: data/ledger.db')).to.include('block:write-protected-path'));
    it('blocks a Move whose source is protected', () => expect(patch('*** Move File: ~/.hermes/config.yaml -> /tmp/c.yaml')).to.include('block:write-protected-path'));
    it('blocks a Move of a protected folder (Hermes moves it whole)', () => expect(patch('*** Move File: /home/agent/project/data -> /tmp/d')).to.include('block:write-protected-path'));
    it('blocks a Move of an ancestor of a protected path', () => expect(patch('*** Move File: /home/agent/project -> /tmp/p')).to.include('block:write-protected-path'));
    it('blocks a Move of a whole Hermes home (not only an ask)', () => expect(patch('*** Move File: /srv/hermes-bot -> /srv/hermes-bot.off')).to.include('block:write-protected-path'));
    it('blocks a Move whose destination is protected', () => expect(patch('*** Move File: /tmp/c.yaml -> ~/.hermes/config.yaml')).to.include('block:write-protected-path'));
    it('reads headers with other spacing and case', () => expect(patch('***   update file:   AGENTS.md  ')).to.include('block:write-protected-path'));
    it('blocks a patch it cannot read that mentions a protected path', () =>
      expect(ids('patch', { mode: 'patch', patch: 'garbage touching /home/agent/project/tollgate.yaml' })).to.include('block:write-protected-path'));
    it('allows a patch of project files', () => expect(patch('*** Update File: src/app.ts\n@@\n-a\n+b\n*** Add File: docs/new.md\n+x')).to.deep.equal([]));
    it('lists every header path', () => expect(patchTargets({ mode: 'patch', patch: '*** Update File: a\n*** Move File: b -> c\n*** Delete File: d' }).paths).to.deep.equal(['a', 'b', 'c', 'd']));
    it("reads a unified diff's headers, each git a/ b/ path also without its prefix", () => {
      const diff = 'diff --git a/tollgate.yaml b/tollgate.yaml\n--- a/tollgate.yaml\n+++ b/tollgate.yaml\t2026-01-01\n@@ -1 +1 @@\n-x\n+y\n';
      const targets = patchTargets({ mode: 'patch', patch: diff });
      expect(targets.unreadable).to.equal(false);
      expect([...new Set(targets.paths)]).to.deep.equal(['a/tollgate.yaml', 'tollgate.yaml', 'b/tollgate.yaml']);
      expect(patchTargets({ mode: 'patch', patch: '--- /dev/null\n+++ "b/my file"\nrename from old\nrename to new\n' }).paths).to.deep.equal(['b/my file', 'my file', 'old', 'new']);
    });
  });

  describe('read_file and search_files', () => {
    it('block reading a key', () => expect(ids('read_file', { path: '/home/agent/project/data/keys/payload-hmac.key' })).to.deep.equal(['block:read-secret']));
    it('block reading the HTTP token', () => expect(ids('read_file', { path: 'data/http-token' })).to.deep.equal(['block:read-secret']));
    it('block searching the keys folder', () => expect(ids('search_files', { pattern: '.', path: '/home/agent/project/data/keys' })).to.deep.equal(['block:read-secret']));
    it("allow reading tollgate's README and config", () => {
      expect(ids('read_file', { path: '/opt/tollgate/README.md' })).to.deep.equal([]);
      expect(ids('read_file', { path: 'tollgate.yaml' })).to.deep.equal([]);
    });
  });

  describe('search_files', () => {
    it('blocks a content search of a folder holding the keys', () =>
      expect(ids('search_files', { pattern: 'key', path: '/home/agent/project/data' })).to.include('block:read-secret'));
    it('blocks a content search of the project above it', () =>
      expect(ids('search_files', { pattern: 'key', path: '/home/agent/project', target: 'content' })).to.include('block:read-secret'));
    it('allows a search of file names there (names are not contents)', () =>
      expect(ids('search_files', { pattern: '*.db', path: '/home/agent/project/data', target: 'files' })).to.deep.equal([]));
    it('allows a content search elsewhere', () => expect(ids('search_files', { pattern: 'TODO', path: '/home/agent/project/src' })).to.deep.equal([]));
  });

  describe('execute_code', () => {
    const code = (text: string) => ids('execute_code', { code: text });
    it('blocks writing the config', () => expect(code("open('/home/agent/project/tollgate.yaml', 'w').write('approvals: {yolo: true}')")).to.include('block:write-protected-path'));
    it('blocks connecting to the socket', () => expect(code("import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('/home/agent/project/data/tollgate.sock')")).to.include('block:socket-client'));
    it('blocks the HTTP port on loopback', () => expect(code("import urllib.request\nurllib.request.urlopen('http://127.0.0.1:8787/v1/approvals')")).to.include('block:socket-client'));
    it('blocks removing an ancestor of a protected path', () => expect(code("import shutil\nshutil.rmtree('/home/agent/project')")).to.include('block:write-protected-path'));
    it('blocks walking a folder that holds the keys', () => expect(code("import os\nfor r, d, f in os.walk('/home/agent/project/data'):\n  print(f)")).to.include('block:read-secret'));
    it('blocks a link to a protected folder', () => expect(code("import os\nos.symlink('/home/agent/project/data', '/tmp/d')")).to.include('block:write-protected-path'));
    it('allows str.replace with a dot (not a folder rename)', () => expect(code("print('a.b'.replace('.', ','))")).to.deep.equal([]));
    it('allows removing a folder of its own', () => expect(code("import shutil\nshutil.rmtree('/tmp/build')")).to.deep.equal([]));
    it('blocks reading a key even plainly', () => expect(code("print(open('data/keys/payload-hmac.key').read())")).to.include('block:read-secret'));
    it('blocks building a Hermes path from parts', () => expect(code("import os\np = os.path.join(os.environ['HOME'], '.hermes', 'config.yaml')\nopen(p, 'w').write('')")).to.include('block:write-protected-path'));
    it('blocks deleting the ledger', () => expect(code("import os\nos.remove('data/ledger.db')")).to.include('block:write-protected-path'));
    it("blocks a library's saver over a Hermes file (numpy.savetxt, fileinput's inplace)", () => {
      expect(code("import numpy\nnumpy.savetxt('/home/agent/.hermes/config.yaml', [1])")).to.include('block:write-protected-path');
      expect(code("import fileinput\nfor l in fileinput.input('/home/agent/.hermes/config.yaml', inplace=True): print('')")).to.include('block:write-protected-path');
    });
    it('allows a plain read of the config', () => expect(code("print(open('/home/agent/project/tollgate.yaml').read())")).to.deep.equal([]));
    it('allows ordinary code', () => expect(code("import json\nprint(json.dumps({'a': 1}))\nopen('out.txt', 'w').write('x')")).to.deep.equal([]));
  });
});
