import { expect } from 'chai';
import { laterScriptExamples, unreadScriptRun } from '../../../../domain/gate/selfProtection/laterScripts.ts';

describe('scripts that text run later by another program may run (laterScripts.ts)', () => {
  for (const text of laterScriptExamples.stops) it(`refuses a script outside the system folders: ${text}`, () => expect(unreadScriptRun(text)).not.to.equal(null));
  for (const text of laterScriptExamples.allows) it(`lets pass: ${text}`, () => expect(unreadScriptRun(text)).to.equal(null));
});
