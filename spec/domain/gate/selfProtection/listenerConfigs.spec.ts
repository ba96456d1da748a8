import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { writtenListenerExamples, writtenListenerPort } from '../../../../domain/gate/selfProtection/listenerConfigs.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';

describe("config files written with tollgate's port for a server to listen on (listenerConfigs.ts, red team 15)", () => {
  const written = (path: string, content: string) =>
    findSelfProtection({ tool: 'write_file', args: { path, content }, shell: null, protection: exampleFacts, pathFacts: { cwd: '/srv/app', links: {}, dirs: [] } }).filter((f) => f.verdict === 'block').map((f) => f.id);
  for (const [path, content] of writtenListenerExamples.stops) {
    it(`blocks writing ${path}`, () => {
      expect(writtenListenerPort(path, content, 8787)).to.be.a('string');
      expect(written(path, content)).to.include('socket-client');
    });
  }
  for (const [path, content] of writtenListenerExamples.allows) {
    it(`lets through ${path} ${JSON.stringify(content).slice(0, 40)}`, () => {
      expect(writtenListenerPort(path, content, 8787)).to.equal(null);
      expect(written(path, content)).to.not.include('socket-client');
    });
  }
  it('reads nothing when tollgate has no HTTP port', () => expect(writtenListenerPort('/tmp/sshd_config', 'Port 8787\n', null)).to.equal(null));
});
