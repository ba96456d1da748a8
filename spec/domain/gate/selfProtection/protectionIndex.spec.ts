/**
 * The protection index the floor builds from the recorded facts: kept between calls only for the very same facts,
 * and never crashed by a pattern JavaScript cannot compile (found by the review of the floor's speed paths).
 */
import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import type { ProtectionFacts } from '../../../../domain/gate/selfProtection/protectionFacts.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('the protection index', () => {
  const analyze = useBashAnalyzer();
  const ids = (line: string, protection: ProtectionFacts): string[] =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection }).map((f) => f.id);

  it("is rebuilt when only the daemon's uid, user or code root differ from the last call's facts", () => {
    const svc: ProtectionFacts = { ...exampleFacts, uid: 2000, user: 'svc' };
    expect(ids('pkill -u svc', svc)).to.include('kill-guard');
    expect(ids('pkill -u svc', { ...exampleFacts, uid: 3000, user: 'other' })).to.not.include('kill-guard');
    // Judged right after facts that differ only in the user: the earlier index must not answer for these.
    expect(ids('pkill -u svc', svc)).to.include('kill-guard');
    const atOpt: ProtectionFacts = { ...exampleFacts, codeRoot: '/opt/tollgate' };
    const elsewhere: ProtectionFacts = { ...exampleFacts, codeRoot: '/srv/other' };
    expect(ids('cd /opt/tollgate && npm start', atOpt)).to.not.deep.equal([]);
    expect(ids('cd /opt/tollgate && npm start', elsewhere)).to.deep.equal([]);
    expect(ids('cd /opt/tollgate && npm start', atOpt)).to.not.deep.equal([]);
  });

  it('never throws on a glob JavaScript cannot compile, and still matches the protected name it may spell', () => {
    for (const line of ["grep -rE '[\\w-.]+@example' src/", 'cat A[z-a]', "find . -name 'A[z-a]'", 'ls [b-a]*'])
      expect(() => ids(line, exampleFacts), line).to.not.throw();
    expect(() => findSelfProtection({ tool: 'read_file', args: { path: 'A[z-a]' }, shell: null, protection: exampleFacts })).to.not.throw();
    expect(ids('cat /home/agent/project/data/ke[z-a]s/payload-hmac.key', exampleFacts)).to.include('read-secret');
    expect(ids('rm -f /home/agent/project/tollgate.yam[z-a]', exampleFacts)).to.include('write-protected-path');
  });
});
