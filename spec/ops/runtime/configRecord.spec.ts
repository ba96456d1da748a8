/** The settings recorded in ConfigLoaded and the table that says which change lets more through (one case per rule). */
import { expect } from 'chai';
import { parseConfig } from '../../../ops/config/loadConfig.ts';
import { configDigest, configSettings, settingChanges, settingRules, type ConfigSettings } from '../../../ops/runtime/configRecord.ts';

const base = configSettings(parseConfig({}));
const withSettings = (change: Partial<ConfigSettings>): ConfigSettings => ({ ...base, ...change });
const guards = (change: Record<string, string>) => ({ ...base.guardModes, ...change });
const protect = (change: Partial<ConfigSettings['protection']>): Partial<ConfigSettings> => ({ protection: { ...base.protection, ...change } });

/** For each rule: from a start (`from`, else the defaults), a change that loosens the guard, and one that does not. */
const cases: Record<string, { from?: Partial<ConfigSettings>; looser: Partial<ConfigSettings>; notLooser: Partial<ConfigSettings> }> = {
  'approvals.mode': { looser: { approvalsMode: 'off' }, notLooser: { approvalsMode: 'manual' } },
  'approvals.yolo': { looser: { yolo: true }, notLooser: { yolo: false } },
  'approvals.out_of_band': { looser: { outOfBand: true }, notLooser: { outOfBand: false } },
  'approvals.timeout': { looser: { timeoutSeconds: 600 }, notLooser: { timeoutSeconds: 10 } },
  'approvals.allowlist (entries)': { looser: { allowlistLength: 3 }, notLooser: { allowlistLength: 0 } },
  'fence.mode': { looser: { guardModes: guards({ fence: 'observe' }) }, notLooser: { guardModes: guards({ fence: 'enforce' }) } },
  'leak.mode': { from: { guardModes: guards({ leak: 'enforce' }) }, looser: { guardModes: guards({ leak: 'observe' }) }, notLooser: { guardModes: guards({ leak: 'enforce' }) } },
  'provenance.mode': { from: { guardModes: guards({ provenance: 'block' }) }, looser: { guardModes: guards({ provenance: 'observe' }) }, notLooser: { guardModes: guards({ provenance: 'block' }) } },
  'ledger kind': { looser: { ledgerKind: 'memory' }, notLooser: { ledgerKind: 'postgres' } },
  'server.socket': { looser: { socket: '/elsewhere.sock' }, notLooser: { socket: '/elsewhere.sock' } },
  'server.human_socket': { from: { humanSocket: '/run/tollgate/human/tollgate.sock' }, looser: { humanSocket: null }, notLooser: { humanSocket: '/run/tollgate/human/other.sock' } },
  'protection.rules_files': { from: protect({ rulesFiles: ['AGENTS.md', 'SOUL.md'] }), looser: protect({ rulesFiles: ['SOUL.md'] }), notLooser: protect({ rulesFiles: ['SOUL.md', 'AGENTS.md', 'CLAUDE.md'] }) },
  'protection.paths': { from: protect({ paths: ['/srv/app/.env'] }), looser: protect({ paths: [] }), notLooser: protect({ paths: ['/srv/app/.env', '/srv/app/keys'] }) },
  'protection.hermes_homes': { from: protect({ hermesHomes: ['/srv/hermes'] }), looser: protect({ hermesHomes: ['/srv/other'] }), notLooser: protect({ hermesHomes: ['/srv/other', '/srv/hermes'] }) },
};

describe('ConfigLoaded settings', () => {
  it('reads the guard-relevant settings from the validated configuration, paths absolute', () => {
    const s = configSettings(parseConfig({ approvals: { yolo: true, allowlist: ['make', 'ls'], out_of_band: true }, ledger: { url: 'memory:' }, server: { socket: 'x.sock' } }));
    expect(s).to.include({ yolo: true, allowlistLength: 2, outOfBand: true, ledgerKind: 'memory', approvalsMode: 'manual', timeoutSeconds: 60, humanSocket: null });
    expect(s.socket).to.equal(`${process.cwd()}/x.sock`);
    expect(s.guardModes).to.deep.equal({ fence: 'enforce', leak: 'observe', provenance: 'observe' });
    expect(configSettings(parseConfig({ protection: { rules_files: ['AGENTS.md'] } })).protection).to.deep.equal({ rulesFiles: ['AGENTS.md'], paths: [], hermesHomes: [] });
  });

  it('digests the whole configuration: any change, even outside the guard settings, changes it', () => {
    expect(configDigest(parseConfig({}))).to.equal(configDigest(parseConfig({})));
    expect(configDigest(parseConfig({ retention: { raw_text_days: 7 } }))).not.to.equal(configDigest(parseConfig({})));
  });

  it('has a case for every rule of the table, and no case without a rule', () => {
    expect(Object.keys(cases).sort()).to.deep.equal(settingRules.map((r) => r.name).sort());
  });

  for (const [name, { from, looser, notLooser }] of Object.entries(cases)) {
    it(`${name}: names the change, and says whether it lets more through`, () => {
      const start = withSettings(from ?? {});
      const loosened = settingChanges(start, { ...start, ...looser });
      expect(loosened.map((c) => c.name)).to.deep.equal([name]);
      expect(loosened[0]!.looser).to.equal(name !== 'approvals.timeout' && name !== 'server.socket');
      const other = settingChanges({ ...start, ...looser }, { ...start, ...notLooser });
      if (other.length > 0) expect(other.map((c) => [c.name, c.looser])).to.deep.equal([[name, false]]);
    });
  }

  it('reads no change from a start recorded before approvals.out_of_band existed (null) to its default', () => {
    expect(settingChanges(withSettings({ outOfBand: null }), withSettings({ outOfBand: false }))).to.deep.equal([]);
  });
});
