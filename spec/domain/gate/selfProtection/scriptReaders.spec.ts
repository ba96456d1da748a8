import { expect } from 'chai';
import { commandRules, toolCallFindings } from '../../../../domain/gate/selfProtection/commandRules.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { protectionIndex } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { makefileIncludes } from '../../../../domain/gate/selfProtection/embeddedLanguages.ts';
import { runFiles, runFileText, scriptReaders, writtenRunFile } from '../../../../domain/gate/selfProtection/scriptReaders.ts';
import { lineScope } from '../../../../domain/gate/selfProtection/shellScope.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';
import { describeRowExamples } from './support/rowExamples.ts';

describe('script files other programs run (awk -f, make, npm run, vim -S, gdb -x, sqlite3, m4, tsx, xargs -a, cat | sh, PATH) are judged by their text (real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const index = protectionIndex(exampleFacts);
  const rule = commandRules.find((r) => r.name === 'runs-a-script-file-another-program-reads')!;
  const rowFindings = (row: (typeof scriptReaders)[number], line: string) => {
    const analysis = analyze(line);
    const scope = lineScope(analysis, index, null);
    return analysis.commands.filter((c) => runFiles(c, analysis, [row]).length > 0).flatMap((c) => rule.find(c, scope, row.recorded ?? {}));
  };

  it('every row has a unique name and examples both ways', () => {
    expect(new Set(scriptReaders.map((r) => r.name)).size).to.equal(scriptReaders.length);
    for (const row of scriptReaders) {
      expect(row.stops, row.name).to.have.length.greaterThan(0);
      expect(row.allows, row.name).to.have.length.greaterThan(0);
    }
  });

  describeRowExamples(scriptReaders, analyze, rowFindings);

  describe('the files each way in names', () => {
    const files = (line: string) => { const a = analyze(line); return a.commands.flatMap((c) => runFiles(c, a)).map((f) => `${f.as}:${f.path}`); };
    it('awk -f, repeated', () => expect(files('awk -f a.awk -f b.awk x')).to.deep.equal(['code:a.awk', 'code:b.awk']));
    it('make -C reads the folder\'s makefiles; -f names its own', () => {
      expect(files('make -C sub')).to.deep.equal(['makefile:sub/GNUmakefile', 'makefile:sub/makefile', 'makefile:sub/Makefile']);
      expect(files('make -f build.mk all')).to.deep.equal(['makefile:build.mk']);
    });
    it('npm run NAME --prefix DIR reads DIR/package.json', () => expect(files('npm run build --prefix web')).to.deep.equal(['package-scripts:web/package.json']));
    it('sqlite3 input and .read', () => expect(files("sqlite3 db < a.sql; sqlite3 db '.read b.sql'")).to.deep.equal(['sqlite:a.sql', 'sqlite:b.sql']));
    it('npx tsx FILE, not npx tsc', () => {
      expect(files('npx tsx src/run.ts')).to.deep.equal(['code:src/run.ts']);
      expect(files('npx tsc --noEmit')).to.deep.equal([]);
    });
    it('PATH put in front of a command names the program in each folder, not the system folders', () =>
      expect(files('PATH=./bin:/usr/bin:$PATH git status')).to.deep.equal(['direct:./bin/git']));
    it('nothing for a line without PATH=', () => expect(files('git status')).to.deep.equal([]));
  });

  describe('how the text reads', () => {
    it('package.json: only the script run, with its pre and post scripts', () => {
      const json = '{"scripts": {"prebuild": "a", "build": "b", "postbuild": "c", "other": "d"}}';
      expect(runFileText({ path: 'package.json', as: 'package-scripts', command: 'build' }, json)?.text).to.equal('a\nb\nc');
    });
    it('sed: w writes become redirections', () => expect(runFileText({ path: 's.sed', as: 'sed' }, 'w /tmp/out\n')?.text).to.equal('> /tmp/out'));
    it('xargs: the file\'s words follow the command', () => expect(runFileText({ path: 'a', as: 'args', command: 'rm -f' }, 'x\ny\n')?.text.split('\n')[0]).to.equal('rm -f x y '));
  });

  describe('written now, run later by one of these programs (write_file)', () => {
    const ids = (path: string, content: string) => toolCallFindings('write_file', { path, content }, index).map((f) => f.id);
    for (const [path, content] of [
      ['/tmp/Makefile', 'all:\n\trm -rf /home/agent/project/data\n'],
      ['/tmp/x.rb', "File.delete('/home/agent/project/tollgate.yaml')\n"],
      ['/tmp/x.mjs', "import fs from 'fs'; fs.rmSync('/home/agent/project/data', {recursive: true});\n"],
      ['/tmp/x.ts', "import fs from 'fs'; fs.rmSync('/home/agent/project/data', {recursive: true});\n"],
      ['/tmp/x.awk', 'BEGIN { system("hermes config set approvals.yolo true") }\n'],
      ['/tmp/p/package.json', '{"scripts": {"build": "hermes config set approvals.yolo true"}}\n'],
      ['/tmp/e.sed', 'w /home/agent/.hermes/config.yaml\n'],
      ['Rakefile', "task :default do File.delete('/home/agent/project/tollgate.yaml') end\n"], ['justfile', 'x:\n    hermes config set approvals.yolo true\n'],
      ['db/seed.sql', '\\! tollgate approve abc always\n'],
    ] as const) it(`refuses ${path}`, () => expect(ids(path, content)).to.include('script-would-disable-guard'));
    for (const [path, content] of [
      ['Makefile', 'all:\n\tgo build ./...\n'], ['src/app.ts', "import fs from 'fs'; fs.writeFileSync('out.json', '{}');\n"],
      ['package.json', '{"name": "x", "scripts": {"test": "mocha", "build": "tsc"}}\n'], ['tools/sum.awk', '{ s += $1 } END { print s }\n'],
    ] as const) it(`allows ${path}`, () => expect(ids(path, content)).to.deep.equal([]));
    it('names no reader for ordinary files', () => expect(writtenRunFile('notes.md')).to.equal(null));
  });

  it('names the files a makefile includes, so their recipes are judged with it (red team 6)', () => {
    expect(makefileIncludes('include ../inc.mk\n-include a.mk b.mk # note\nsinclude c.mk\nall:\n\techo hi\n')).to.deep.equal(['../inc.mk', 'a.mk', 'b.mk', 'c.mk']);
    expect(makefileIncludes('include $(DEPS)\ninclude *.d\n')).to.deep.equal([]);
    expect(makefileIncludes('all:\n\techo included\n')).to.deep.equal([]);
  });
});
