import { expect } from 'chai';
import { codeListensOnPort, codeReachesLoopbackPort, literalPortUnknown, signalsEveryone } from '../../../../domain/gate/selfProtection/codeTargets.ts';
import { constantValue, withArithmeticFolded } from '../../../../domain/gate/selfProtection/constantArithmetic.ts';
import { curlConfigFiles, curlConfigWords, curlWordsReach, isCurlrc } from '../../../../domain/gate/selfProtection/curlClients.ts';
import {
  addressInNameServices, curlReachesLoopbackPort, curlUrlVariants, isLoopbackHost, loopbackPortUnknown, namesLoopbackPort, publicLoopbackNames,
} from '../../../../domain/gate/selfProtection/loopbackHosts.ts';

describe('tollgate\'s port and pids spelled another way (red team 3, F11, F12)', () => {
  describe('public names that resolve to loopback (the data table)', () => {
    for (const name of publicLoopbackNames) {
      it(`${name} and the names below it are loopback`, () => {
        expect(isLoopbackHost(name)).to.equal(true);
        expect(isLoopbackHost(`app.${name}`)).to.equal(true);
        expect(isLoopbackHost(`${name}.example.com`)).to.equal(false);
      });
    }
    for (const service of addressInNameServices) {
      it(`${service} names embedding a loopback address are loopback, others are not`, () => {
        for (const host of [`127.0.0.1.${service}`, `app.127.0.0.2.${service}`, `app-127-0-0-1.${service}`, `7f000001.${service}`, `0.0.0.0.${service}`])
          expect(isLoopbackHost(host), host).to.equal(true);
        if (!publicLoopbackNames.includes(service)) expect(isLoopbackHost(`10.0.0.1.${service}`)).to.equal(false);
      });
    }
    it('sslip.io spells IPv6 loopback with dashes', () => expect(isLoopbackHost('--1.sslip.io')).to.equal(true));
    it('an ordinary public name is not loopback', () => expect(isLoopbackHost('example.com')).to.equal(false));
    it("/etc/hosts' own loopback names (localhost.localdomain, localhost4, localhost6.localdomain6) are loopback", () => {
      for (const host of ['localhost.localdomain', 'LOCALHOST.localdomain.', 'localhost4', 'localhost4.localdomain4', 'localhost6', 'localhost6.localdomain6'])
        expect(isLoopbackHost(host), host).to.equal(true);
      expect(isLoopbackHost('localhostess.com')).to.equal(false);
    });
  });

  describe('ports as curl and code write them', () => {
    it('a port with any number of leading zeros is the port', () => {
      expect(namesLoopbackPort('http://127.0.0.1:08787/', 8787)).to.equal(true);
      expect(namesLoopbackPort('http://127.0.0.1:0000008787/', 8787)).to.equal(true);
      expect(namesLoopbackPort('http://127.0.0.1:87870/', 8787)).to.equal(false);
    });
    it('constant shell arithmetic is folded before the port is read', () => {
      expect(withArithmeticFolded('http://127.0.0.1:$((8700+87))/')).to.equal('http://127.0.0.1:8787/');
      expect(namesLoopbackPort('http://127.0.0.1:$((8700+87))/', 8787)).to.equal(true);
      expect(namesLoopbackPort('http://127.0.0.1:$((3000+1))/', 8787)).to.equal(false);
    });
    it('a name without a dot in a URL may be this machine (its hostname, /etc/hosts)', () => {
      expect(namesLoopbackPort('http://myhost:8787/', 8787)).to.equal(true);
      expect(namesLoopbackPort('myhost:8787', 8787)).to.equal(false);
      expect(namesLoopbackPort('https://example.com:8787/', 8787)).to.equal(false);
    });
    it('a loopback URL whose port is filled in at run time may be tollgate', () => {
      for (const word of ['http://localhost:$PORT/', 'http://127.0.0.1:${P}/x', 'http://127.0.0.1:`cat p`/', 'http://127.0.0.1:{port}/', 'http://localhost:', 'http://$H:8787/', "http://$(hostname -I | cut -d' ' -f1):8787/", 'http://`uname -n`:8787/'])
        expect(loopbackPortUnknown(word, 8787), word).to.equal(true);
      for (const word of ['http://example.com:$PORT/', 'http://localhost:3000/$X', 'http://$H:3000/'])
        expect(loopbackPortUnknown(word, 8787), word).to.equal(false);
    });
  });

  describe('curl URL globs', () => {
    it('ranges and sets in the host and port expand; the path is kept', () => {
      expect(curlUrlVariants('http://127.0.0.1:878[7-8]/[1-3].html')).to.deep.equal(['http://127.0.0.1:8787/[1-3].html', 'http://127.0.0.1:8788/[1-3].html']);
      expect(curlUrlVariants('http://{a,b}.example.com/')).to.deep.equal(['http://a.example.com/', 'http://b.example.com/']);
      expect(curlUrlVariants('http://x:[08786-08787:1]/')).to.deep.equal(['http://x:08786/', 'http://x:08787/']);
    });
    it('an IPv6 address in brackets is not a range', () => expect(curlUrlVariants('http://[::1]:8787/')).to.deep.equal(['http://[::1]:8787/']));
    it('a host or port part expanding past the limit is a scan that may hit the port', () => {
      expect(curlUrlVariants('http://127.0.0.1:[1-65535]/')).to.equal(null);
      expect(curlReachesLoopbackPort('http://127.0.0.1:[1-65535]/', 8787)).to.equal(true);
    });
    it('globs that may give the port are caught, others are not', () => {
      expect(curlReachesLoopbackPort('http://127.0.0.1:878[7-7]/v1/approvals', 8787)).to.equal(true);
      expect(curlReachesLoopbackPort('http://127.0.0.1:{8787}/', 8787)).to.equal(true);
      expect(curlReachesLoopbackPort('http://127.0.0.1:{3000,3001}/', 8787)).to.equal(false);
      expect(curlReachesLoopbackPort('https://example.com/[1-3].html', 8787)).to.equal(false);
    });
  });

  describe('curl config files', () => {
    it('finds -K, --config, --config= and -K glued to other short flags', () => {
      expect(curlConfigFiles(['-K', 'a', '--config', 'b', '--config=c', '-sKd', '-sK', 'e', '-o', 'K', 'http://x'])).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
      expect(curlConfigFiles(['-s', 'https://example.com'])).to.deep.equal([]);
    });
    it('reads its lines as the command-line words they stand for', () => {
      expect(curlConfigWords('# c\nunix-socket = "data/tollgate.sock"\nurl: http://x/\n--silent\nheader "A: b"\n')).to.deep.equal(
        ['--unix-socket', 'data/tollgate.sock', '--url', 'http://x/', '--silent', '--header', 'A: b']);
    });
    const reach = { port: 8787, socketOf: (w: string) => (w.endsWith('tollgate.sock') ? w : null) };
    it('a socket, a URL on the port, or a --resolve to loopback on the port is reached', () => {
      expect(curlWordsReach(['--unix-socket', 'data/tollgate.sock'], reach)).to.equal('data/tollgate.sock');
      expect(curlWordsReach(['--unix-socket=$S'], reach)).to.match(/\$S/);
      expect(curlWordsReach(['--url', 'http://127.1:8787/'], reach)).to.equal('127.0.0.1:8787');
      expect(curlWordsReach(['--resolve', 't:8787:127.0.0.1', 'http://t:8787/'], reach)).to.not.equal(null);
      expect(curlWordsReach(['--silent', '--url', 'https://example.com/'], reach)).to.equal(null);
    });
    it('knows the config names curl reads by default', () => {
      for (const path of ['/home/a/.curlrc', '.curlrc', '/home/a/.config/curlrc', '_curlrc']) expect(isCurlrc(path), path).to.equal(true);
      expect(isCurlrc('/tmp/notes.curlrc.txt')).to.equal(false);
    });
  });

  describe('constant arithmetic', () => {
    it('reads sums, products, powers, hex and octal the way each language does', () => {
      expect(constantValue('8700+87')).to.equal(8787);
      expect(constantValue('(25000 + 130) * 1')).to.equal(25130);
      expect(constantValue('0x2000 + 0x253')).to.equal(8787);
      expect(constantValue('2**13 + 595')).to.equal(8787);
      expect(constantValue('021123', 'shell')).to.equal(8787);
      expect(constantValue('-1')).to.equal(-1);
    });
    it('anything with a name or a call is unknown', () => {
      for (const text of ['port', 'int(x)', '8700+p', '', '1/0', '"8787"']) expect(constantValue(text), text).to.equal(null);
    });
  });

  describe('host and port apart in code', () => {
    it('a loopback host next to the port, constant arithmetic or a name assigned it is reached', () => {
      for (const code of ["socket.create_connection(('127.0.0.2', 8787))", "http.client.HTTPConnection('127.0.0.1', 8700+87)", "p = 8700 + 87\nsocket.create_connection(('localhost', p))",
        "require('net').connect(8787, '127.0.0.1')", "require('http').get({host: 'localhost', port: 0x2253})", "socket.create_connection(('localhost', port))",
        "psycopg2.connect(host='127.0.0.1', port=8700+87)", "http.request({host: 'localhost', port: p})"])
        expect(codeReachesLoopbackPort(code, 8787), code).to.equal(true);
    });
    it('another host, another port, or a server binding a port is not', () => {
      for (const code of ["socket.create_connection(('example.com', 443))", "socket.create_connection(('localhost', 5432))", "s = socket.socket()\ns.bind(('127.0.0.1', port))",
        "p = 3000\nurlopen('http://localhost:%d' % p)", "print('127.0.0.1', 8787)", "psycopg2.connect(host='localhost', port=5432, user=u)",
        "require('http').get({host: 'localhost', port: 3000})", "redis.Redis('localhost', 6379, db=0)"])
        expect(codeReachesLoopbackPort(code, 8787), code).to.equal(false);
    });
    it('a loopback URL literal with a port filled in later is reached unless the code assigns another port', () => {
      expect(literalPortUnknown(['http://127.0.0.1:{port}/x'], "requests.get(f'http://127.0.0.1:{port}/x')", 8787)).to.equal(true);
      expect(literalPortUnknown(['http://127.0.0.1:{port}/x'], "port = 3000\nrequests.get(f'http://127.0.0.1:{port}/x')", 8787)).to.equal(false);
    });
  });

  describe('signals to every process in code', () => {
    it('kill(-1), killpg(0) and a pid computed as the daemon\'s are stopped', () => {
      for (const code of ['os.kill(-1, 9)', 'process.kill(-1)', 'os.killpg(0, signal.SIGKILL)', 'os.killpg(os.getpgrp(), 9)', "kill 'KILL', -1", 'os.kill(4000+242, 9)'])
        expect(signalsEveryone(code, 4242), code).to.equal(true);
    });
    it('a signal to another pid, or signal 0 to probe one, is not', () => {
      for (const code of ['os.kill(1234, 0)', 'os.kill(pid, signal.SIGTERM)', 'proc.kill()']) expect(signalsEveryone(code, 4242), code).to.equal(false);
    });
  });
});

describe('code that serves on tollgate\'s port: a stand-in daemon (red team 10)', () => {
  const serving = [
    "import socket;s=socket.socket();s.bind(('127.0.0.1',8787));s.listen()",
    "require('http').createServer((q,r)=>r.end('{}')).listen(8787)",
    "IO::Socket::INET->new(LocalPort=>8787,Listen=>1)",
    "from http.server import HTTPServer, BaseHTTPRequestHandler\nHTTPServer(('', 0x2253), BaseHTTPRequestHandler).serve_forever()",
    "PORT = 8700 + 87\nserver.bind(('0.0.0.0', PORT))",
    "Bun.serve({ port: 8787, fetch: () => new Response('{}') })",
    // Red team 15: the number made by calls of constants, bit operators, an environment lookup's default.
    "p=int.from_bytes(b'\\x22\\x53','big')\ns.bind(('127.0.0.1',p));s.listen(1)", "p=int('2253',16)\ns.bind(('127.0.0.1',p));s.listen(1)",
    "p=sum([8000,700,87])\ns.bind(('127.0.0.1',p));s.listen(1)", "p=0x2200^0x53\ns.bind(('127.0.0.1',p));s.listen(1)", "p=ord('\\u2253')\ns.bind(('',p));s.listen()",
    "p=int('%d%d'%(87,87))\ns.bind(('',p));s.listen()", "p=int(os.environ.get('TG_P', '8787'))\ns.bind(('',p));s.listen()",
    "require('net').createServer().listen(parseInt('2253',16))", "require('http').createServer().listen(process.env.P || 8787)",
  ];
  for (const code of serving) it(`serves: ${JSON.stringify(code).slice(0, 70)}`, () => expect(codeListensOnPort(code, 8787)).to.equal(true));
  const other = [
    "s.bind(('127.0.0.1', 9000)); s.listen()", "print(8787)", "app.run(port=5000)", "requests.get('https://example.com/8787')",
    "PORT = 8786\nserver.bind(('', PORT))", "p=int(os.environ.get('PORT', 5000))\ns.bind(('',p));s.listen()", "p=sum([1,2])\ns.bind(('',p));s.listen()",
  ];
  for (const code of other) it(`does not: ${JSON.stringify(code).slice(0, 70)}`, () => expect(codeListensOnPort(code, 8787)).to.equal(false));
});
