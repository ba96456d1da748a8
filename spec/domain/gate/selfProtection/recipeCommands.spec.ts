import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { recipeCommands } from '../../../../domain/gate/selfProtection/recipeCommands.ts';
import { folderMark, includeMark, poeText, recipeIncludes, taskfileText, unreadMark } from '../../../../domain/gate/selfProtection/recipeFiles.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('a recipe\'s commands are judged by the shell table in the folder they run in (red team 8)', () => {
  const analyze = useBashAnalyzer();
  const at = (text: string) => recipeCommands(text, '/home/agent/web', '/home/agent').map(({ command, dir }) => `${dir ?? '?'}: ${[command.program, ...command.args].join(' ')}`);

  describe('where each command runs', () => {
    it('in the recipe file\'s folder, moved by a cd for the rest of its own line only (each recipe line has a shell of its own)', () => {
      expect(at('cd /srv/hermes-bot && rm -rf plugins\nrm -rf dist')).to.deep.equal(['/srv/hermes-bot: rm -rf plugins', '/home/agent/web: rm -rf dist']);
      expect(at('cd ../api; make')).to.deep.equal(['/home/agent/api: make']);
      expect(at('cd "$D" && rm -rf x')).to.deep.equal(['?: rm -rf x']);
    });
    it('directory keys move the lines after them until the mark goes back', () => {
      expect(at(`${folderMark}/srv/hermes-bot\nrm -rf plugins\n${folderMark}\nls`)).to.deep.equal(['/srv/hermes-bot: rm -rf plugins', '/home/agent/web: ls']);
      expect(at("set working-directory := '/srv/hermes-bot'\nx:\n    rm -rf plugins")).to.deep.equal(['/srv/hermes-bot: rm -rf plugins']);
    });
    it('rule headers, keys, assignments and comments are no commands; make\'s @ and - prefixes are dropped', () => {
      expect(at('all: build plugins\nCC = gcc\n# rm -rf x\n\t@rm -rf dist\n-rm -f a.o')).to.deep.equal(['/home/agent/web: rm -rf dist', '/home/agent/web: rm -f a.o']);
    });
  });

  it('a Taskfile task\'s dir key and poe\'s cwd become directory marks around their commands', () => {
    expect(taskfileText('tasks:\n  x:\n    dir: /srv/h\n    cmds:\n      - rm -rf plugins\n')).to.equal(`${folderMark}/srv/h\nrm -rf plugins\n${folderMark}`);
    expect(poeText('[tool.poe.tasks.x]\ncmd = "rm -rf plugins"\ncwd = "/srv/h"\n').split('\n').filter((l) => l !== '')).to.deep.equal([`${folderMark}/srv/h`, 'rm -rf plugins', folderMark]);
  });

  describe('files a justfile or Taskfile includes', () => {
    it('just: import (optional with ?) and mod, by path or by its default names', () => {
      expect(recipeIncludes('just', "import 'a.just'\nimport? \"b.just\"\nmod tools\nmod db 'db/x.just'\n")).to.deep.equal([
        { candidates: ['a.just'], optional: false }, { candidates: ['b.just'], optional: true },
        { candidates: ['tools.just', 'tools/mod.just', 'tools/justfile', 'tools/.justfile'], optional: false }, { candidates: ['db/x.just'], optional: false }]);
    });
    it('Taskfile: includes by folder, by file, optional ones, and remote ones that cannot be read', () => {
      const found = recipeIncludes('taskfile', 'includes:\n  a: ./sub\n  b: {taskfile: ./x.yml, optional: true}\n  c: https://x.example/t.yml\n');
      expect(found[0]!.candidates[0]).to.equal('./sub/Taskfile.yml');
      expect(found[1]).to.deep.equal({ candidates: ['./x.yml'], optional: true });
      expect(found[2]).to.deep.equal({ candidates: [], optional: false });
    });
    it('an included Taskfile is read on its own, an unread mark is kept for the judge', () => {
      const text = taskfileText(`tasks:\n  a:\n    cmds: [go build]\n${includeMark}sub/Taskfile.yml\ntasks:\n  b:\n    cmds: [make x]\n${unreadMark}gone.yml`);
      expect(text.split('\n')).to.include.members(['go build', 'make x', `${unreadMark}gone.yml`]);
    });
  });

  describe('judged through the floor', () => {
    it('refuses a recipe whose included file could not be read', () => {
      const line = 'just build';
      const found = findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, pathFacts: { cwd: '/home/agent/web', links: {}, dirs: [] },
        scripts: { '/home/agent/web/justfile': `mod tools\nbuild:\n    cargo build\n${unreadMark}tools.just` } });
      expect(found.map((f) => f.id)).to.include('hidden-command');
    });
    const blocks = (line: string, scripts: Record<string, string>) =>
      findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, scripts, pathFacts: { cwd: '/home/agent/web', links: {}, dirs: [] } })
        .some((f) => f.verdict === 'block');
    it('blocks a relative write that reaches a Hermes home or the clone through the recipe\'s folder', () => {
      expect(blocks('make', { '/home/agent/web/Makefile': 'all:\n\tcd /srv/hermes-bot && rm -rf plugins\n' })).to.equal(true);
      expect(blocks('npm run fmt', { '/home/agent/web/package.json': '{"scripts": {"fmt": "cd /opt/tollgate && prettier --write ."}}' })).to.equal(true);
      expect(blocks('task x', { '/home/agent/web/Taskfile.yml': 'tasks:\n  x:\n    dir: /srv/hermes-bot\n    cmds: [rm -rf plugins]\n' })).to.equal(true);
    });
    it('passes the same commands in an ordinary folder', () => {
      expect(blocks('make', { '/home/agent/web/Makefile': 'all:\n\trm -rf plugins dist\n\tprettier --write .\n' })).to.equal(false);
      expect(blocks('npm run fmt', { '/home/agent/web/package.json': '{"scripts": {"fmt": "prettier --write . && eslint --fix"}}' })).to.equal(false);
    });
  });
});
