import { expect } from 'chai';
import { controlInText, hermesCodeControl } from '../../../../domain/gate/selfProtection/inlineCode.ts';
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
        expect(hermesCodeControl(code)?.id, code).to.equal('hermes-control');
      for (const code of [`print(os.environ['${name}'])`, `if process.env.${name} == x: pass`])
        expect(hermesCodeControl(code), code).to.equal(null);
    });
  }

  it("refuses Hermes' command-line code imported by an interpreter, and not other Hermes names", () => {
    for (const code of ['from hermes_cli.main import main', 'import hermes_cli.config as c', "__import__('hermes_cli.plugins')", 'python3 -m hermes_cli.main plugins disable tollgate'])
      expect(hermesCodeControl(code)?.id, code).to.equal('hermes-control');
    for (const code of ["print('hermes_cli is Hermes CLI')", 'import hermes_client']) expect(hermesCodeControl(code), code).to.equal(null);
    expect(controlInText('x = 1')).to.equal(null);
  });
});
