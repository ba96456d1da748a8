import { expect } from 'chai';
import { busCallOf, busCallStopsGuard, managerEndingMethods, unitHoldsGuard, unitObjectMethods, unitStoppingMethods, loginEndingMethods } from '../../../../domain/gate/selfProtection/daemonReach.ts';
import { codeSpawnExamples, callArgumentLists, unixSocketLiteral } from '../../../../domain/gate/selfProtection/codeSpawns.ts';
import { fileServerRows, sandboxBindings, sandboxRows, servedFolders } from '../../../../domain/gate/selfProtection/folderExposure.ts';
import { mediaPaths, mediaTagExamples } from '../../../../domain/gate/selfProtection/mediaTags.ts';
import { toolPathWords } from '../../../../domain/gate/selfProtection/toolPaths.ts';
import { tollgateArguments } from '../../../../domain/gate/selfProtection/controlCommands.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import type { SimpleCommand } from '../../../../domain/shell/shellAnalysis.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

const command = (line: string): SimpleCommand => {
  const [program = '', ...args] = line.split(/\s+/);
  return { program, programPath: program, args, redirects: [], pipedFrom: [], via: [], text: line };
};
const SD = 'org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager';

describe('reaching or stopping the daemon by routes other than kill and the socket (red team 8)', () => {
  const analyze = useBashAnalyzer();
  const blocks = (line: string): boolean =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).some((f) => f.verdict === 'block');
  const toolBlocks = (tool: string, args: Record<string, unknown>): boolean =>
    findSelfProtection({ tool, args, shell: null, protection: exampleFacts }).some((f) => f.verdict === 'block');

  describe('every bus tool spells the same method call', () => {
    const expected = { service: 'org.freedesktop.systemd1', path: '/org/freedesktop/systemd1', iface: 'org.freedesktop.systemd1.Manager', method: 'StopUnit' };
    it('busctl call SERVICE OBJECT INTERFACE METHOD SIGNATURE VALUES', () =>
      expect(busCallOf(command(`busctl --user call ${SD} StopUnit ss tollgate.service replace`))).to.deep.equal({ ...expected, values: ['tollgate.service', 'replace'] }));
    it('dbus-send --dest=SERVICE OBJECT INTERFACE.METHOD typed:values', () =>
      expect(busCallOf(command('dbus-send --session --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StopUnit string:tollgate.service string:replace')))
        .to.deep.equal({ ...expected, values: ['tollgate.service', 'replace'] }));
    it('gdbus call --dest --object-path --method with GVariant texts', () =>
      expect(busCallOf(command("gdbus call -e -d org.freedesktop.systemd1 -o /org/freedesktop/systemd1 -m org.freedesktop.systemd1.Manager.StopUnit 'tollgate.service' replace")))
        .to.deep.equal({ ...expected, values: ['tollgate.service', 'replace'] }));
    it('qdbus SERVICE OBJECT INTERFACE.METHOD values', () =>
      expect(busCallOf(command('qdbus org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StopUnit tollgate.service replace')))
        .to.deep.equal({ ...expected, values: ['tollgate.service', 'replace'] }));
    it('a listing or an introspection is no call', () => {
      expect(busCallOf(command('busctl --user list'))).to.equal(null);
      expect(busCallOf(command('gdbus introspect --session --dest org.freedesktop.systemd1 --object-path /'))).to.equal(null);
    });
  });

  describe('each systemd method that stops a unit stops the daemon when the unit is its', () => {
    for (const method of unitStoppingMethods) {
      it(`${method} of tollgate.service blocks, of myapp.service does not`, () => {
        const call = { service: 'org.freedesktop.systemd1', path: '/org/freedesktop/systemd1', iface: 'org.freedesktop.systemd1.Manager', method };
        expect(busCallStopsGuard({ ...call, values: ['tollgate.service', 'replace'] })).to.not.equal(null);
        expect(busCallStopsGuard({ ...call, values: ['myapp.service', 'replace'] })).to.equal(null);
      });
    }
    for (const method of managerEndingMethods) {
      it(`${method} of the manager ends every unit`, () =>
        expect(busCallStopsGuard({ service: 'org.freedesktop.systemd1', path: '/org/freedesktop/systemd1', iface: 'org.freedesktop.systemd1.Manager', method, values: [] })).to.not.equal(null));
    }
    for (const method of unitObjectMethods) {
      it(`${method} on the daemon's unit object blocks, on another unit's does not`, () => {
        const call = { service: 'org.freedesktop.systemd1', iface: 'org.freedesktop.systemd1.Unit', method, values: [] };
        expect(busCallStopsGuard({ ...call, path: '/org/freedesktop/systemd1/unit/tollgate_2eservice' })).to.not.equal(null);
        expect(busCallStopsGuard({ ...call, path: '/org/freedesktop/systemd1/unit/myapp_2eservice' })).to.equal(null);
      });
    }
    for (const method of loginEndingMethods) {
      it(`logind's ${method} ends a user's or session's processes`, () =>
        expect(busCallStopsGuard({ service: 'org.freedesktop.login1', path: '/org/freedesktop/login1', iface: 'org.freedesktop.login1.Manager', method, values: ['1000'] })).to.not.equal(null));
    }
    it('reading methods stop nothing', () => {
      for (const method of ['GetUnit', 'ListUnits', 'GetUnitFileState', 'StartUnit'])
        expect(busCallStopsGuard({ service: 'org.freedesktop.systemd1', path: '/org/freedesktop/systemd1', iface: 'org.freedesktop.systemd1.Manager', method, values: ['tollgate.service'] }), method).to.equal(null);
    });
  });

  describe('a unit holds the daemon when it is named for it, unreadable, a slice or the user manager', () => {
    for (const unit of ['tollgate.service', 'hermes-gateway', '$U', 'tollgat*', 'app.slice', 'user.slice', 'user@1000.service']) it(`holds: ${unit}`, () => expect(unitHoldsGuard(unit)).to.equal(true));
    for (const unit of ['myapp.service', 'default.target', 'nginx', 'a*b.service']) it(`does not: ${unit}`, () => expect(unitHoldsGuard(unit)).to.equal(false));
  });

  describe('spawns from inline code are judged as the command they run', () => {
    for (const line of codeSpawnExamples.stops) it(`blocks: ${line}`, () => expect(blocks(line)).to.equal(true));
    for (const line of codeSpawnExamples.allows) it(`allows: ${line}`, () => expect(blocks(line)).to.equal(false));
    it('the exec family repeats the program as argv[0]: one is dropped', () =>
      expect(callArgumentLists("os.spawnlp(os.P_WAIT, 'tollgate', 'tollgate', 'approve', 'a1')")).to.deep.equal(['tollgate approve a1']));
    it('a unix socket address literal names its path', () => {
      expect(unixSocketLiteral('unix://data/tollgate.sock')).to.equal('data/tollgate.sock');
      expect(unixSocketLiteral('unix:///run/x.sock')).to.equal('/run/x.sock');
      expect(unixSocketLiteral('https://example.com')).to.equal(null);
    });
    for (const line of ["python3 -c \"import subprocess; subprocess.run(['systemctl','--user','stop','tollgate'])\"",
      `node -e "require('child_process').spawnSync('busctl', ['--user','call','org.freedesktop.systemd1','/org/freedesktop/systemd1','org.freedesktop.systemd1.Manager','StopUnit','ss','tollgate.service','replace'])"`,
      "node -e \"require('child_process').spawnSync('loginctl',['terminate-user','agent'])\""]) {
      it(`a stop of the daemon spawned from code blocks: ${line}`, () => expect(blocks(line)).to.equal(true));
    }
    it("Node's _debugProcess opens another process's inspector", () => expect(blocks("node -e 'process._debugProcess(4242)'")).to.equal(true));
  });

  describe('package runners run the command after -p/--package, not the package', () => {
    for (const line of ['npx -p . tollgate approve a1 always', 'npx --package=. tollgate approve a1', 'npm exec --package=. -- tollgate approve a1', 'yarn dlx -p . tollgate approve a1']) {
      it(`runs tollgate: ${line}`, () => expect(tollgateArguments(command(line))).to.not.equal(null));
      it(`blocks: ${line}`, () => expect(blocks(line)).to.equal(true));
    }
    for (const line of ['npx -p typescript tsc --noEmit', 'yarn dlx -p cowsay cowsay hi', 'npx prettier --check .']) it(`not tollgate: ${line}`, () => expect(tollgateArguments(command(line))).to.equal(null));
  });

  describe('sandboxes bind host folders under other names', () => {
    it('each sandbox row reads its writable, read-only and root options', () => {
      expect(sandboxBindings(command('systemd-nspawn --bind=/a:/b --bind-ro=/c:/d -D /r'))).to.deep.equal([
        { source: '/a', inside: '/b', writable: true }, { source: '/c', inside: '/d', writable: false }, { source: '/r', inside: '/', writable: true }]);
      expect(sandboxBindings({ ...command('sh'), via: ['proot -b /a:/b'] })).to.deep.equal([{ source: '/a', inside: '/b', writable: true }]);
      expect(sandboxBindings({ ...command('sh'), via: ['firejail --bind=/a,/b'] })).to.deep.equal([{ source: '/a', inside: '/b', writable: true }]);
      expect([...sandboxRows.keys()]).to.have.members(['systemd-nspawn', 'proot', 'firejail']);
    });
    it('a bind at the same path is no other name', () => expect(sandboxBindings(command('systemd-nspawn --bind=/a -D /r'))[0]).to.deep.include({ inside: null }));
  });

  describe('file servers publish a folder (the working directory unless told)', () => {
    const cases: [string, string[]][] = [
      ['python3 -m http.server -d /x 8000', ['/x']], ['python3 -m http.server', ['.']], ['httpd -h /x -p 80', ['/x']], ['php -S 0:8000 -t /x', ['/x']], ['php -S 0:8000', ['.']],
      ['ruby -run -e httpd /x -p 8000', ['/x']], ['http-server /x -p 1', ['/x']], ['serve /x', ['/x']], ['live-server /x', ['/x']], ['miniserve /x', ['/x']], ['darkhttpd /x', ['/x']],
      ['twistd -n web --path /x', ['/x']], ['rclone serve http /x', ['/x']], ['caddy file-server --root /x', ['/x']], ['git daemon --base-path=/x --export-all', ['/x']], ['npx http-server /x', ['/x']],
    ];
    for (const [line, folders] of cases) it(line, () => expect(servedFolders(command(line))).to.deep.equal(folders));
    it('every row has a case', () => {
      const covered = new Set(cases.map(([line]) => { const c = command(line); return c.program === 'npx' ? c.args[0] : c.program; }));
      for (const program of fileServerRows.keys()) if (!/^python[23]?$/.test(program)) expect(covered.has(program), program).to.equal(true);
    });
    for (const line of ['python3 -m pytest', 'php -r "echo 1;"', 'git status', 'ruby -e "puts 1"']) it(`serves nothing: ${line}`, () => expect(servedFolders(command(line))).to.deep.equal([]));
  });

  describe('MEDIA: tags attach the file they name, however it is quoted or punctuated', () => {
    for (const { text, paths } of mediaTagExamples) it(JSON.stringify(text), () => expect(mediaPaths(text)).to.deep.equal(paths));
    for (const message of ['MEDIA:"/home/agent/project/data/http-token"', 'see MEDIA:`/home/agent/project/data/http-token`.', '(MEDIA:/home/agent/project/data/http-token)',
      'MEDIA:/home/agent/project/data', 'MEDIA: /home/agent/project/data/keys/a.key, thanks']) {
      it(`send_message blocks: ${message}`, () => expect(toolBlocks('send_message', { target: 'telegram', message })).to.equal(true));
    }
    for (const message of ['report MEDIA:/tmp/report.png', 'MEDIA:/home/agent/project/docs/chart.png', 'all done']) it(`send_message allows: ${message}`, () => expect(toolBlocks('send_message', { target: 'telegram', message })).to.equal(false));
    it('the paths MEDIA: tags name are resolved like other tool paths, so a link to a key is the key', () => {
      expect(toolPathWords('send_message', { target: 't', message: 'MEDIA:/tmp/pic.png' })).to.include('/tmp/pic.png');
      const linked = findSelfProtection({ tool: 'send_message', args: { target: 't', message: 'MEDIA:/tmp/pic.png' }, shell: null, protection: exampleFacts,
        pathFacts: { cwd: null, links: { '/tmp/pic.png': '/home/agent/project/data/http-token' }, dirs: [] } });
      expect(linked.some((f) => f.verdict === 'block')).to.equal(true);
    });
    it('vision_analyze of a key or the token blocks; of a picture it does not', () => {
      expect(toolBlocks('vision_analyze', { image_url: '/home/agent/project/data/keys/checkpoint.ed25519', question: 'text?' })).to.equal(true);
      expect(toolBlocks('vision_analyze', { image_url: 'data/http-token' })).to.equal(true);
      expect(toolBlocks('vision_analyze', { image_url: '/tmp/shot.png' })).to.equal(false);
    });
  });
});
