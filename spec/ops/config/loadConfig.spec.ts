import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, defaultConfig, loadConfig, mergeConfig, parseConfig } from '../../../ops/config/loadConfig.ts';

describe('configuration', () => {
  it('has safe defaults: manual approvals, no yolo, embedded ledger, observe for the content guards', () => {
    const config = defaultConfig();
    expect(config.approvals).to.include({ mode: 'manual', yolo: false, timeout: 60 });
    expect(config.ledger.url).to.equal('sqlite:./data/ledger.db');
    expect(config.provenance.mode).to.equal('observe');
    expect(config.leak.mode).to.equal('observe');
    expect(config.server.max_body_bytes).to.equal(1_048_576);
  });

  it('names every wrong key by its path instead of ignoring it', () => {
    expect(() => parseConfig({ approvals: { mode: 'sometimes', yolo: 'yes' }, ledgr: {} })).to.throw(ConfigError)
      .with.property('message').that.matches(/approvals\.mode/).and.matches(/approvals\.yolo/).and.matches(/ledgr/);
  });

  it('reads durations as people write them', () => {
    expect(parseConfig({ approvals: { timeout: '2m' } }).approvals.timeout).to.equal(120);
    expect(() => parseConfig({ approvals: { timeout: 'soon' } })).to.throw(/approvals\.timeout/);
  });

  it('merges a partial scenario configuration over a base', () => {
    const merged = parseConfig(mergeConfig({ approvals: { mode: 'off', timeout: 5 } }, { approvals: { yolo: true } }));
    expect(merged.approvals).to.include({ mode: 'off', yolo: true, timeout: 5 });
  });

  it('loads YAML from the path given, and says which file is broken', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-config-'));
    writeFileSync(join(dir, 'good.yaml'), 'approvals:\n  yolo: true\n');
    writeFileSync(join(dir, 'bad.yaml'), 'approvals: [unclosed\n');
    expect(loadConfig(join(dir, 'good.yaml'), {}).approvals.yolo).to.equal(true);
    expect(() => loadConfig(join(dir, 'bad.yaml'), {})).to.throw(/bad\.yaml is not valid YAML/);
    expect(loadConfig(undefined, { TOLLGATE_CONFIG: join(dir, 'good.yaml') }).approvals.yolo).to.equal(true);
  });
});

describe('release version', () => {
  it('is the same in package.json and in what the CLI and daemon report', async () => {
    const { readFileSync } = await import('node:fs');
    const { tollgateVersion } = await import('../../../ops/version.ts');
    expect(tollgateVersion).to.equal((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });
});
