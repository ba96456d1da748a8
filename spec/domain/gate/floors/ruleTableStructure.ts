/** Structural checks every command rule table passes: unique kebab-case ids, a reason, examples both ways. */
import { expect } from 'chai';
import type { CommandRule } from '../../../../domain/gate/floors/commandRule.ts';

export const expectWellFormedTable = <Rule extends CommandRule>(table: readonly Rule[], positives: (rule: Rule) => readonly string[]): void => {
  describe('table structure', () => {
    it('has unique ids', () => {
      const ids = table.map((rule) => rule.id);
      expect(new Set(ids).size, ids.join(', ')).to.equal(ids.length);
    });

    it('uses kebab-case ids', () => {
      for (const rule of table) expect(rule.id).to.match(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    });

    it('gives every rule a one-sentence reason', () => {
      for (const rule of table) expect(rule.reason, rule.id).to.match(/^[A-Z].*\.$/);
    });

    it('gives every rule at least one positive and one negative example', () => {
      for (const rule of table) {
        expect(positives(rule), rule.id).to.have.length.greaterThan(0);
        expect(rule.allows, rule.id).to.have.length.greaterThan(0);
      }
    });
  });
};
