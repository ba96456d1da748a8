import { expect } from 'chai';
import { promptText, promptTextLimit } from '../../../domain/encoding/promptText.ts';

describe('promptText: the call as a human is shown it when asked', () => {
  it('a terminal call shows its command line on one line, escapes visible', () => {
    expect(promptText('terminal', { command: 'rm -r build/ # \x1b[2K\x1b[1Gls -la' })).to.equal('rm -r build/ # \\x1b[2K\\x1b[1Gls -la');
    expect(promptText('terminal', { command: 'ls\nrm -rf ~' })).to.equal('ls\\nrm -rf ~');
  });

  it('execute_code shows its code with its line breaks, everything else escaped', () => {
    expect(promptText('execute_code', { code: 'import os\nos.system("\u202els")' })).to.equal('import os\nos.system("\\u202els")');
  });

  it('other tools show the tool and their arguments as JSON, invisible characters as \\u escapes', () => {
    const shown = promptText('write_file', { path: 'notes\u202etxt.sh', content: 'x\x1b' });
    expect(shown).to.equal('write_file {"path":"notes\\u202etxt.sh","content":"x\\u001b"}');
    expect(promptText('terminal', { command: '' })).to.equal('terminal {"command":""}');
  });

  it('a long call is cut with a marker saying how much is not shown, never inside an escape', () => {
    const long = promptText('terminal', { command: `${'a'.repeat(promptTextLimit)}; rm -rf ~` });
    expect(long).to.match(/… \[10 more characters not shown; the whole call is in `tollgate approvals`\]$/);
    for (let pad = 0; pad < 8; pad++) {
      const json = promptText('write_file', { path: `${'p'.repeat(promptTextLimit - 14 + pad)}\u202e\u202e\u202e` });
      const cut = json.slice(0, json.indexOf('…'));
      expect(cut, `pad ${pad}`).to.not.match(/\\(u[0-9a-f]{0,3})?$/);
    }
  });
});
