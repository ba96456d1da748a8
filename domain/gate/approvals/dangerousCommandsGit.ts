/** Approval rules for git operations that throw work away or rewrite shared history. */
import { parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import { subcommand } from '../../shell/commandFacts.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { programs, type DangerousRule } from '../floors/commandRule.ts';

const gitGlobal: OptionGrammar = { shortWithValue: 'Cc', longWithValue: ['git-dir', 'work-tree', 'namespace', 'config-env', 'super-prefix'] };

/** The git subcommand, if it is `name`, with its parsed arguments. */
const gitCall = (command: SimpleCommand, name: string) => {
  const call = subcommand(command, gitGlobal);
  return call.name === name ? { args: call.args, options: parseOptions(call.args) } : undefined;
};

const anyShortLetter = (options: ReturnType<typeof parseOptions>, letter: string): boolean => options.short.has(letter);

export const gitRules: readonly DangerousRule[] = [
  {
    id: 'git-reset-hard',
    reason: 'Discards uncommitted changes in the working tree (git reset --hard).',
    programs: programs('git'),
    // git accepts unambiguous prefixes: --h, --ha, --har all mean --hard.
    matches: (command) => gitCall(command, 'reset')?.args.some((arg) => /^--h(?:a(?:r(?:d)?)?)?$/.test(arg)) ?? false,
    asks: ['git reset --hard HEAD~3', 'git reset --hard', 'git -C repo reset --hard origin/main', 'git reset --har'],
    allows: ['git reset HEAD~1', 'git reset --soft HEAD~1', 'git log --oneline -20', 'git status'],
  },
  {
    id: 'git-force-push',
    reason: 'Force-pushes, rewriting history on the remote.',
    programs: programs('git'),
    matches: (command) => {
      const push = gitCall(command, 'push');
      if (!push) return false;
      if (anyShortLetter(push.options, 'f') || [...push.options.long.keys()].some((name) => name.startsWith('forc'))) return true;
      return push.options.operands.slice(1).some((refspec) => refspec.startsWith('+'));
    },
    asks: ['git push --force', 'git push -f origin main', 'git push --force-with-lease', 'git push origin +main', 'git push -fu origin main'],
    allows: ['git push', 'git push origin main', 'git push -u origin feature'],
  },
  {
    id: 'git-clean-force',
    reason: 'Deletes untracked files for good (git clean -f).',
    programs: programs('git'),
    matches: (command) => {
      const clean = gitCall(command, 'clean');
      return clean !== undefined && (anyShortLetter(clean.options, 'f') || clean.options.long.has('force'));
    },
    asks: ['git clean -fd', 'git clean -f', 'git clean -xdf', 'git clean --force'],
    allows: ['git clean -n', 'git clean --dry-run -d'],
  },
  {
    id: 'git-branch-force-delete',
    reason: 'Deletes a branch even when its commits are merged nowhere else (git branch -D).',
    programs: programs('git'),
    matches: (command) => {
      const branch = gitCall(command, 'branch');
      if (!branch) return false;
      const { short, long } = branch.options;
      const deletes = short.has('d') || long.has('delete');
      const forced = short.has('f') || long.has('force');
      return short.has('D') || (deletes && forced);
    },
    asks: ['git branch -D feature', 'git branch -d -f feature', 'git branch --delete --force x', 'git branch -df x'],
    allows: ['git branch -d merged', 'git branch -a', 'git branch new-feature'],
  },
];
