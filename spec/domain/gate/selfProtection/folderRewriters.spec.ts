import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { folderRewriters, folderRewrites, gitRewrittenFolders } from '../../../../domain/gate/selfProtection/folderRewriters.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { operandsOf } from '../../../../domain/gate/selfProtection/shellOperands.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';
import { describeRowExamples } from './support/rowExamples.ts';

describe('programs that rewrite the folder they run in are judged as filling it: tollgate\'s clone and Hermes homes block, ordinary projects pass (red team 8)', () => {
  const analyze = useBashAnalyzer();
  const blocks = (line: string, cwd: string | null = null, lost = false) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, pathFacts: cwd === null ? null : { cwd, links: {}, dirs: [] }, directoryLost: lost })
      .some((f) => f.verdict === 'block');
  const rowFindings = (row: (typeof folderRewriters)[number], line: string) =>
    analyze(line).commands.filter((c) => row.programs.has(c.program)).flatMap((c) => folderRewrites(c, c.args)?.fills ?? []).filter(() => blocks(line));

  it('every row has a unique name and examples both ways', () => {
    expect(new Set(folderRewriters.map((r) => r.name)).size).to.equal(folderRewriters.length);
    for (const row of folderRewriters) {
      expect(row.stops, row.name).to.have.length.greaterThan(0);
      expect(row.allows, row.name).to.have.length.greaterThan(0);
    }
  });

  describeRowExamples(folderRewriters, analyze, rowFindings);

  describe('the folders each tool rewrites', () => {
    const fills = (line: string) => { const c = analyze(line).commands[0]!; return folderRewrites(c, c.args)?.fills ?? null; };
    it('a formatter with no operand rewrites the folder it runs in; with operands, those', () => {
      expect(fills('prettier --write')).to.deep.equal(['.']);
      expect(fills('prettier --write src docs')).to.deep.equal(['src', 'docs']);
      expect(fills('eslint --config x.json --fix src')).to.deep.equal(['src']);
    });
    it('reading modes rewrite nothing', () => {
      for (const line of ['prettier --check .', 'eslint .', 'black --check .', 'ruff check .', 'cargo fmt --check', 'gofmt -l .', 'isort --diff .', 'pnpm list', 'yarn why x', 'ncu'])
        expect(fills(line), line).to.equal(null);
    });
    it('runners start the tool they name (npx, pnpm dlx, yarn BIN, npm exec, python3 -m, uvx, bunx, corepack)', () => {
      for (const line of ['npx prettier --write .', 'npx prettier@3 --write .', 'pnpm dlx prettier --write .', 'yarn prettier --write .', 'npm exec -- prettier --write .',
        'python3 -m black .', 'uvx ruff format', 'bunx eslint --fix', 'corepack pnpm install', 'npx @biomejs/biome format --write .', 'poetry run black .'])
        expect(fills(line), line).to.deep.equal(['.']);
    });
    it('other formatters and codemods: their verb, write flag or read-only flags decide, patterns are no paths', () => {
      expect(fills('terraform fmt modules')).to.deep.equal(['modules']);
      expect(fills('terraform fmt -check')).to.equal(null);
      expect(fills('shfmt -w scripts')).to.deep.equal(['scripts']);
      expect(fills('shfmt -d scripts')).to.equal(null);
      expect(fills('sd foo bar src/a.ts')).to.deep.equal(['src/a.ts']);
      expect(fills('fastmod foo bar')).to.deep.equal(['.']);
      expect(fills('sg scan -U')).to.deep.equal(['.']);
      expect(fills('deno fmt --check')).to.equal(null);
      expect(fills('deno install')).to.deep.equal(['.']);
    });
    it('package managers fill the folder an option names, and global installs fill none', () => {
      expect(fills('pnpm -C web install')).to.deep.equal(['web']);
      expect(fills('yarn --cwd web add x')).to.deep.equal(['web']);
      expect(fills('yarn')).to.deep.equal(['.']);
      expect(fills('pnpm add -g x')).to.equal(null);
      expect(fills('yarn global add x')).to.equal(null);
    });
    it('go and cargo: only the subcommands that rewrite sources or manifests', () => {
      expect(fills('go generate ./...')).to.deep.equal(['.']);
      expect(fills('go mod tidy')).to.deep.equal(['.']);
      expect(fills('go build ./...')).to.equal(null);
      expect(fills('cargo clippy --fix')).to.deep.equal(['.']);
      expect(fills('cargo test')).to.equal(null);
    });
  });

  describe('git subcommands that check out, rewrite or redirect the work tree', () => {
    it('submodule update, lfs pull, replace and filter-repo rewrite the work tree', () => {
      expect(gitRewrittenFolders('submodule', ['update', '--force'], '.')).to.deep.equal(['.']);
      expect(gitRewrittenFolders('lfs', ['pull'], 'w')).to.deep.equal(['w']);
      expect(gitRewrittenFolders('replace', ['a', 'b'], '.')).to.deep.equal(['.']);
      expect(gitRewrittenFolders('filter-repo', ['--path', 'src'], '.')).to.deep.equal(['.']);
    });
    it('worktree add fills its folder; core.worktree sends later checkouts to its value', () => {
      expect(gitRewrittenFolders('worktree', ['add', '--force', '-b', 'x', '../w'], '.')).to.deep.equal(['../w']);
      expect(gitRewrittenFolders('config', ['core.worktree', '/opt/tollgate'], '.')).to.deep.equal(['.', '/opt/tollgate']);
    });
    it('listing and reading subcommands rewrite nothing', () => {
      expect(gitRewrittenFolders('submodule', ['status'], '.')).to.deep.equal([]);
      expect(gitRewrittenFolders('lfs', ['ls-files'], '.')).to.deep.equal([]);
      expect(gitRewrittenFolders('worktree', ['list'], '.')).to.deep.equal([]);
      expect(gitRewrittenFolders('replace', ['-l'], '.')).to.deep.equal([]);
      expect(gitRewrittenFolders('config', ['--get', 'core.worktree'], '.')).to.deep.equal([]);
    });
    it('blocks in the clone and where core.worktree points at it, passes in a project', () => {
      expect(blocks('git submodule update --init --force', '/opt/tollgate')).to.equal(true);
      expect(blocks('git config core.worktree /opt/tollgate', '/tmp/r')).to.equal(true);
      expect(blocks('git worktree add --force .', '/opt/tollgate')).to.equal(true);
      expect(blocks('git lfs pull', '/home/agent/web')).to.equal(false);
    });
  });

  describe('a writer fed its names by a listing may write any file of the folder', () => {
    it('a whole substitution or xargs feeding a writer fills the folder', () => {
      expect(operandsOf(analyze("sed -i s/a/b/ $(git ls-files)").commands.find((c) => c.program === "sed")!).fills).to.include('.');
      expect(operandsOf(analyze('git ls-files | xargs sed -i s/a/b/').commands.find((c) => c.program === 'sed')!).fills).to.include('.');
    });
    it('blocks in the clone, passes in a project, and a program that only reads is left alone', () => {
      expect(blocks("sed -i s/a/b/ $(git ls-files)", '/opt/tollgate')).to.equal(true);
      expect(blocks("sed -i s/a/b/ $(git ls-files)", '/home/agent/web')).to.equal(false);
      expect(blocks('wc -l $(git ls-files)', '/opt/tollgate')).to.equal(false);
      expect(blocks('gdb -p $(pgrep -f app) -batch -ex bt', '/opt/tollgate')).to.equal(false);
    });
  });

  it('where the folder was lost, a rewrite of it may be the clone, and one of a named subfolder passes', () => {
    expect(blocks('pnpm install', null, true)).to.equal(true);
    expect(blocks('prettier --write .', null, true)).to.equal(true);
    expect(blocks('prettier --write src/', null, true)).to.equal(false);
  });
});
