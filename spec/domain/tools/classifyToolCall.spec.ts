import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { canonicalJson } from '../../../domain/encoding/canonicalJson.ts';
import type { ShellAnalysis } from '../../../domain/shell/shellAnalysis.ts';
import { actionFingerprint } from '../../../domain/tools/actionFingerprint.ts';
import { classifyToolCall } from '../../../domain/tools/classifyToolCall.ts';
import { pythonShellOuts } from '../../../domain/tools/pythonShellOuts.ts';
import { builtInShellTools, mcpCommandArguments, runsInUnknownDirectory, shellArgumentOf } from '../../../domain/tools/shellTools.ts';

/** Records what it was asked to analyse; the real grammar is exercised by the shell and eval specs. */
const recordingAnalyzer = () => {
  const seen: string[] = [];
  return { seen, analyze: (source: string): ShellAnalysis => { seen.push(source); return { source, parsed: true, problems: [], commands: [] }; } };
};

describe('tool classification', () => {
  for (const row of builtInShellTools)
    it(`treats ${row.tool}.${row.argument} as a shell command line`, () => {
      const analyzer = recordingAnalyzer();
      const call = classifyToolCall(row.tool, { [row.argument]: 'ls -la' }, analyzer.analyze);
      expect(call.runsShell).to.equal(true);
      expect(analyzer.seen).to.deep.equal(['ls -la']);
    });

  it('lets tools.<name>.shell_arg map another tool onto a shell argument', () => {
    expect(shellArgumentOf('mcp_ssh_exec', { mcp_ssh_exec: 'cmd' })).to.equal('cmd');
    expect(shellArgumentOf('read_file')).to.equal(null);
  });

  for (const argument of mcpCommandArguments)
    it(`judges ${argument} of an unmapped MCP tool as a command line run in an unknown folder`, () => {
      const analyzer = recordingAnalyzer();
      const call = classifyToolCall('mcp_box_run', { [argument]: 'tollgate approve a1 always' }, analyzer.analyze);
      expect(call.runsShell).to.equal(true);
      expect(analyzer.seen).to.deep.equal(['tollgate approve a1 always']);
      expect(runsInUnknownDirectory('mcp_box_run', { [argument]: 'ls' })).to.equal(true);
    });

  it('leaves tools that are not MCP tools, and MCP tools without a command argument, as running no line', () => {
    expect(shellArgumentOf('web_search', {}, { command: 'ls' })).to.equal(null);
    expect(shellArgumentOf('mcp_github_search', {}, { query: 'ls' })).to.equal(null);
    expect(shellArgumentOf('mcp_box_run', { mcp_box_run: 'input' }, { command: 'ls' })).to.equal('input');
  });

  it('marks a shell tool without its command line as running a shell with nothing parsed (the gate blocks it)', () => {
    const call = classifyToolCall('terminal', { cmd: 'ls' }, recordingAnalyzer().analyze);
    expect(call).to.include({ runsShell: true, shell: null });
  });

  it('gives the same fingerprint to the same command line and a different one to any other', () => {
    const a = classifyToolCall('terminal', { command: 'rm -r build/ ' }, recordingAnalyzer().analyze).fingerprint;
    expect(a).to.equal(actionFingerprint('terminal', { commandLine: 'rm -r build/' }));
    expect(a).not.to.equal(classifyToolCall('terminal', { command: 'rm -r build' }, recordingAnalyzer().analyze).fingerprint);
    expect(actionFingerprint('write_file', { args: { path: 'a', content: 'x' } })).to.equal(actionFingerprint('write_file', { args: { content: 'x', path: 'a' } }));
  });

  it('keeps fingerprints stable: SHA-256 of the canonical JSON of the tool and the line (or its arguments), as recorded grants hold them', () => {
    // Digests computed outside this code base (Python's hashlib over the canonical text).
    expect(actionFingerprint('terminal', { commandLine: 'rm -r build/' })).to.equal('7072da991d84df151989aa66607ea2234fd02a2d66c9f2fcf03ef34aa8c65bec');
    expect(actionFingerprint('read_file', { args: { path: 'a.txt' } })).to.equal('57b58b583e421ae6198240d57ebcbb8be2152ef6fdd18bfd9ed4a68fb74d6a08');
    for (const line of ['echo "hé" \u2028 \\', 'tab\there', '\u{1F600} ☃'])
      expect(actionFingerprint('terminal', { commandLine: line })).to.equal(createHash('sha256').update(canonicalJson({ tool: 'terminal', commandLine: line })).digest('hex'));
  });

  it("treats process write and submit data (and an action it does not know) as a command line typed into a shell", () => {
    for (const action of ['write', 'submit', 'send', undefined]) {
      const analyzer = recordingAnalyzer();
      const call = classifyToolCall('process', { action, session_id: 'proc_1', data: 'rm -rf ~/.hermes/plugins' }, analyzer.analyze);
      expect(call.runsShell, String(action)).to.equal(true);
      expect(analyzer.seen).to.deep.equal(['rm -rf ~/.hermes/plugins']);
    }
  });

  it('marks process submit without its data as a shell call with nothing parsed (the gate blocks it)', () =>
    expect(classifyToolCall('process', { action: 'submit', session_id: 'proc_1', data: 42 }, recordingAnalyzer().analyze)).to.include({ runsShell: true, shell: null }));

  it("does not treat process list, poll, log, wait, kill and close as shell (they send the process nothing)", () => {
    for (const action of ['list', 'poll', 'log', 'wait', 'kill', 'close'])
      expect(classifyToolCall('process', { action, session_id: 'proc_1', data: 'rm -rf /' }, recordingAnalyzer().analyze), action).to.include({ runsShell: false, shell: null });
  });

  it('does not treat other tools as shell', () => {
    expect(classifyToolCall('read_file', { path: 'x' }, recordingAnalyzer().analyze)).to.include({ runsShell: false, shell: null });
  });
});

describe('shell-outs visible in execute_code', () => {
  const cases: [string, string[]][] = [
    ["import os\nos.system('rm -rf /')", ['rm -rf /']],
    ['os.popen("ls -la")', ['ls -la']],
    ["subprocess.run(['rm', '-r', 'my dir'])", ["rm -r 'my dir'"]],
    ["subprocess.check_output(r'echo \\d', shell=True)", ['echo \\d']],
    ['subprocess.call("""git reset --hard""", shell=True)', ['git reset --hard']],
    ["x = 1\nprint('os.system is not called here')", []],
    ['subprocess.run(command_built_at_runtime)', []],
    // Python's own escapes: a backslash-newline continues the string, hex, octal and \u escapes are characters.
    ["os.system('her\\\nmes config set approvals.yolo true')", ['hermes config set approvals.yolo true']],
    ["os.system('\\x68ermes \\150ooks \\u0072emove')", ['hermes hooks remove']],
    ["os.system('echo \\$HOME')", ['echo \\$HOME']],
    ["os.system(r'her\\\nmes')", ['her\\\nmes']],
  ];
  for (const [code, lines] of cases)
    it(`finds ${lines.length ? lines.map((l) => JSON.stringify(l)).join(', ') : 'nothing'} in ${JSON.stringify(code)}`, () => {
      expect(pythonShellOuts(code).map((s) => s.commandLine)).to.deep.equal(lines);
    });

  it('analyses every shell-out of a code cell as one command line', () => {
    const analyzer = recordingAnalyzer();
    const call = classifyToolCall('execute_code', { code: "os.system('ls')\nos.system('pwd')" }, analyzer.analyze);
    expect(call.runsShell).to.equal(true);
    expect(analyzer.seen).to.deep.equal(['ls', 'pwd']);
    expect(call.shell?.source).to.equal('ls\npwd');
  });
});
