import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { bearerCheck } from '../../../adapters/http/bearerToken.ts';
import { isLoopbackHost } from '../../../adapters/http/loopback.ts';
import { matchesStreamFilter, parseStreamFilter } from '../../../adapters/http/sse/streamFilter.ts';
import { event } from '../../../domain/events/catalogue.ts';

const withAuth = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('listener checks', () => {
  describe('isLoopbackHost', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1'])
      it(`accepts ${host}`, () => expect(isLoopbackHost(host)).to.equal(true));
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', 'localhost.evil.test', '127.0.0.1.nip.io', '', '2130706433'])
      it(`refuses ${host || '(empty)'}`, () => expect(isLoopbackHost(host)).to.equal(false));
  });

  describe('bearerCheck', () => {
    const check = bearerCheck('0123456789abcdef-token');
    it('accepts exactly the token', () => expect(check(withAuth('Bearer 0123456789abcdef-token'))).to.equal(true));
    for (const header of [undefined, '', 'Bearer', 'Bearer 0123456789abcdef-toke', 'Bearer 0123456789abcdef-tokenX', 'Basic 0123456789abcdef-token', 'Bearer 0123456789abcdef-token extra'])
      it(`refuses ${JSON.stringify(header)}`, () => expect(check(withAuth(header))).to.equal(false));
  });

  describe('stream filters', () => {
    const decided = (verdict: 'allow' | 'block', sessionId = 's1') => event('ToolCallDecided', {
      sessionId, callId: 'c', tool: 'terminal', args: {}, fingerprint: 'f', shell: null, verdict, layer: verdict === 'block' ? 'hardline' : 'gate',
      reasons: [], message: '', mode: 'enforce', wouldBlock: [], approvalId: null, grantId: null, at: '2026-01-01T00:00:00.000Z' });
    const started = event('SessionStarted', { sessionId: 's1', platform: null, parentSessionId: null, owner: null, at: '2026-01-01T00:00:00.000Z' });
    const filter = (q: string) => parseStreamFilter(new URLSearchParams(q));

    it('with no filter keeps everything', () => expect(matchesStreamFilter(filter(''), started)).to.equal(true));
    it('verdict= keeps only decisions with that verdict', () => {
      expect(matchesStreamFilter(filter('verdict=block'), decided('block'))).to.equal(true);
      expect(matchesStreamFilter(filter('verdict=block'), decided('allow'))).to.equal(false);
      expect(matchesStreamFilter(filter('verdict=block'), started)).to.equal(false);
    });
    it('takes lists and repeated parameters', () => {
      expect(matchesStreamFilter(filter('verdict=allow,block'), decided('allow'))).to.equal(true);
      expect(matchesStreamFilter(filter('session=s2&session=s1'), started)).to.equal(true);
    });
    it('refuses unknown verdicts, layers and types, naming the parameter', () => {
      expect(() => filter('verdict=deny')).to.throw(/verdict/).with.property('where', 'query.verdict');
      expect(() => filter('layer=firewall')).to.throw().with.property('where', 'query.layer');
      expect(() => filter('type=Nope')).to.throw().with.property('where', 'query.type');
    });
  });
});
