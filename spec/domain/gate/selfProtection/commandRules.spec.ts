import { expect } from 'chai';
import { commandRules, lineFindings, lineRuleExamples, toolCallFindings } from '../../../../domain/gate/selfProtection/commandRules.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { protectionIndex } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { lineScope } from '../../../../domain/gate/selfProtection/shellScope.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';
import { describeRowExamples } from './support/rowExamples.ts';

describe('self-protection command rows for kills, entry points, hidden text, inline code and socket spellings (real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const index = protectionIndex(exampleFacts);
  const rowFindings = (rule: (typeof commandRules)[number], line: string) => {
    const analysis = analyze(line);
    const scope = lineScope(analysis, index, null);
    return analysis.commands.flatMap((c) => rule.find(c, scope, {}));
  };

  it('every row has a kebab-case name and examples both ways', () => {
    expect(new Set(commandRules.map((r) => r.name)).size).to.equal(commandRules.length);
    for (const rule of commandRules) {
      expect(rule.name).to.match(/^[a-z]+(?:-[a-z]+)*$/);
      expect(rule.stops, rule.name).to.have.length.greaterThan(0);
      expect(rule.allows, rule.name).to.have.length.greaterThan(0);
    }
  });

  describeRowExamples(commandRules, analyze, rowFindings);

  describe('declarations of Hermes switches (the analyzer records no command for them)', () => {
    for (const line of lineRuleExamples.stops) {
      it(`blocks: ${line}`, () => {
        const found = findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts });
        expect(found.map((f) => f.id)).to.include('hermes-control');
      });
    }
    for (const line of lineRuleExamples.allows) it(`allows: ${line}`, () => expect(lineFindings(line)).to.deep.equal([]));
    it('a command split out of a variable after IFS changed is hidden', () => {
      const line = 'IFS=,; x=rm,data/ledger.db; $x';
      expect(findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).map((f) => f.id)).to.include('hidden-command');
    });
  });

  describe('scripts written now, run later, and code cells', () => {
    const ids = (tool: string, args: Record<string, unknown>) => toolCallFindings(tool, args, index).map((f) => f.id);
    it('a shell script that answers approvals is refused when written', () =>
      expect(ids('write_file', { path: '/tmp/a.sh', content: 'tollgate approve abc always\n' })).to.include('script-would-disable-guard'));
    it('a Python script that writes tollgate.yaml is refused when written', () =>
      expect(ids('write_file', { path: '/tmp/a.py', content: "open('/home/agent/project/tollgate.yaml','w').write('x')\n" })).to.include('script-would-disable-guard'));
    it('a shebang makes a script whatever its name', () =>
      expect(ids('write_file', { path: '/tmp/run', content: '#!/usr/bin/env bash\npkill -f tollgate\n' })).to.include('script-would-disable-guard'));
    it('an ordinary script is written', () => expect(ids('write_file', { path: '/tmp/b.sh', content: '#!/bin/sh\nnpm test\ncat tollgate.yaml\n' })).to.deep.equal([]));
    it('a note that mentions a command is not a script', () => expect(ids('write_file', { path: 'notes.md', content: 'run tollgate approve x' })).to.deep.equal([]));
    it('os.kill of the daemon pid in a cell', () => expect(ids('execute_code', { code: 'import os\nos.kill(4242, 9)' })).to.include('kill-guard'));
    it('os.kill of the daemon pid spelled with a leading zero', () => expect(ids('execute_code', { code: 'import os\nos.kill(04242, 9)' })).to.include('kill-guard'));
    it('a /proc loop killing tollgate processes', () =>
      expect(ids('execute_code', { code: "import os\nfor p in os.listdir('/proc'):\n  if b'tollgate' in open(f'/proc/{p}/cmdline','rb').read(): os.kill(int(p),9)" })).to.include('kill-guard'));
    it('psutil killing tollgate', () => expect(ids('execute_code', { code: "import psutil\n[p.kill() for p in psutil.process_iter() if 'tollgate' in ' '.join(p.cmdline())]" })).to.include('kill-guard'));
    it('exec of decoded text', () => expect(ids('execute_code', { code: "import base64\nexec(base64.b64decode('b3Blbigp'))" })).to.include('hidden-command'));
    it('exec of a file read at run time', () => expect(ids('execute_code', { code: "exec(open('/tmp/evil.py').read())" })).to.include('hidden-command'));
    it('os.execvp of a shell with a string is judged as a command line', () =>
      expect(ids('execute_code', { code: "import os\nos.execvp('sh',['sh','-c','tollgate approve x always'])" })).to.include('tollgate-control-command'));
    it('os.execvp of a shell deleting the ledger', () =>
      expect(ids('execute_code', { code: "import os\nos.execvp('sh',['sh','-c','rm /home/agent/project/data/ledger.db'])" })).to.include('write-protected-path'));
    it('glued literals name tollgate.yaml', () => expect(ids('execute_code', { code: "p='/home/agent/project/toll'+'gate.yaml'\nopen(p,'w').write('x')" })).to.include('write-protected-path'));
    it("''.join of literals names tollgate.yaml", () => expect(ids('execute_code', { code: "f=open\nf(''.join(['/home/agent/project/tol','lgate','.yaml']),'w')" })).to.include('write-protected-path'));
    it('os.path.expanduser of a Hermes config', () =>
      expect(findSelfProtection({ tool: 'execute_code', args: { code: "import os\nopen(os.path.expanduser('~/.hermes/config.yaml'),'w')" }, shell: null, protection: exampleFacts }).some((f) => f.verdict === 'block')).to.equal(true));
    it('urlopen of 127.1 on the port', () => expect(ids('execute_code', { code: "import urllib.request as u\nu.urlopen('http://127.1:8787/v1/approvals')" })).to.include('socket-client'));
    it('a glob for the socket', () => expect(ids('execute_code', { code: "import socket,glob\ns=socket.socket(1)\ns.connect(glob.glob('data/*.sock')[0])" })).to.include('socket-client'));
    it('requests_unixsocket with a percent-encoded socket path', () =>
      expect(ids('execute_code', { code: "import requests_unixsocket\nrequests_unixsocket.Session().get('http+unix://%2Fhome%2Fagent%2Fproject%2Fdata%2Ftollgate.sock/v1/approvals')" })).to.include('socket-client'));
    it('a path that is itself decoded is hidden', () => expect(ids('execute_code', { code: "import codecs\nopen(codecs.decode('gbyytngr.lnzy','rot13'),'w')" })).to.include('hidden-command'));
    it('decoded data written to an ordinary file is allowed', () => expect(ids('execute_code', { code: "import base64\nopen('img.png','wb').write(base64.b64decode(data))" })).to.deep.equal([]));
    it('a socket path only held in a string that is measured and printed is not a connection', () =>
      expect(ids('execute_code', { code: "s='curl --unix-socket /home/agent/project/data/tollgate.sock'\nprint(len(s))" })).to.deep.equal([]));
    it('the same path handed to connect is one', () =>
      expect(ids('execute_code', { code: "import socket\ns=socket.socket(socket.AF_UNIX)\ns.connect('/home/agent/project/data/tollgate.sock')" })).to.include('socket-client'));
    it('an ordinary cell is allowed', () => expect(ids('execute_code', { code: "import json\nprint(json.dumps({'a': 1}))\nos.kill(1234, 0)" })).to.deep.equal([]));
  });
});
