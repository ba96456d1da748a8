import { expect } from 'chai';
import { controlInText } from '../../../../domain/gate/selfProtection/inlineCode.ts';
import { lineFindings } from '../../../../domain/gate/selfProtection/commandRules.ts';
import { unguardingVariableNames } from '../../../../domain/gate/selfProtection/unguardingVariables.ts';

describe('variables that take the guard away from the next Hermes or hook client', () => {
  for (const name of unguardingVariableNames) {
    it(`refuses ${name} exported or set before a command`, () => {
      expect(lineFindings(`export ${name}=/tmp/x; hermes chat`).map((f) => f.id)).to.deep.equal(['hermes-control']);
      expect(lineFindings(`${name}=/tmp/x hermes`).map((f) => f.id)).to.deep.equal(['hermes-control']);
    });
    it(`refuses ${name} set from code, and not a read of it`, () => {
      for (const code of [`os.environ['${name}'] = '/tmp/x'`, `subprocess.run(['hermes'], env={"${name}": "/tmp/x"})`, `process.env.${name} = '/tmp/x'`, `$ENV{${name}} = "/tmp/x";`])
        expect(controlInText(code)?.id, code).to.equal('hermes-control');
      for (const code of [`print(os.environ['${name}'])`, `if process.env.${name} == x: pass`])
        expect(controlInText(code), code).to.equal(null);
    });
  }
});
