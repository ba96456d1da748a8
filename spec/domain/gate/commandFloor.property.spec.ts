/**
 * Properties of the command floor over the real parser: (a) wrapping a hardline or dangerous example in
 * wrappers, nested shells, substitutions and compounds never lowers its level; (b) no input makes the analyzer
 * throw, and a line it cannot fully read is never allowed.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { dangerousCommands, matchDangerous } from '../../../domain/gate/approvals/dangerousCommands.ts';
import { commandFloorVerdict, unparseableRuleId } from '../../../domain/gate/floors/commandFloorVerdict.ts';
import { hardlineCommands } from '../../../domain/gate/floors/hardlineCommands.ts';
import { matchHardline } from '../../../domain/gate/floors/hardlineFloor.ts';
import type { ShellAnalysis } from '../../../domain/shell/shellAnalysis.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

/** A command line, and whether it is one simple command that a prefix wrapper can go in front of. */
interface Line {
  readonly text: string;
  readonly simple: boolean;
}

const singleQuoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
const doubleQuoted = (text: string): string => `"${text.replace(/[\\$`"]/g, (ch) => `\\${ch}`)}"`;
const backticked = (text: string): string => `\`${text.replace(/[\\`]/g, (ch) => `\\${ch}`)}\``;

/** Wraps a line as `sh -c '...'` first when a wrapper needs a simple command and the line is not one. */
const asSimple = (line: Line): Line => (line.simple ? line : { text: `sh -c ${singleQuoted(line.text)}`, simple: true });

const firstWord = (text: string): string => text.split(' ', 1)[0]!;
/** The first word is a plain program name that can be respelled (not an assignment, not quoted). */
const respellable = (line: Line): boolean => line.simple && /^[A-Za-z][\w.+-]*$/.test(firstWord(line.text));
const respell = (line: Line, spell: (name: string) => string): Line =>
  respellable(line) ? { text: spell(firstWord(line.text)) + line.text.slice(firstWord(line.text).length), simple: true } : line;

type Wrapper = (line: Line) => Line;

const prefix = (words: string): Wrapper => (line) => ({ text: `${words} ${asSimple(line).text}`, simple: true });
const compound = (wrap: (text: string) => string): Wrapper => (line) => ({ text: wrap(line.text), simple: false });

/** Separators are newlines so a heredoc's closing delimiter stays alone on its line. */
const wrappers: readonly (readonly [string, Wrapper])[] = [
  ['sudo', prefix('sudo')],
  ['env A=1', prefix('env A=1')],
  ['command', prefix('command')],
  ['nohup', prefix('nohup')],
  ['timeout 5', prefix('timeout 5')],
  ['nice -n 5', prefix('nice -n 5')],
  ['backslash', (line) => respell(line, (name) => `\\${name}`)],
  ['absolute path', (line) => respell(line, (name) => `/usr/bin/${name}`)],
  ['split quotes', (line) => respell(line, (name) => (name.length > 1 ? `'${name[0]}''${name.slice(1)}'` : name))],
  ['bash -c', compound((text) => `bash -c ${singleQuoted(text)}`)],
  ['sh -c', compound((text) => `sh -c ${doubleQuoted(text)}`)],
  ['eval', compound((text) => `eval ${singleQuoted(text)}`)],
  ['$(...)', compound((text) => `echo $( ${text}\n)`)],
  ['backticks', compound((text) => `echo ${backticked(text + '\n')}`)],
  ['subshell', compound((text) => `( ${text}\n)`)],
  ['group', compound((text) => `{ ${text}\n}`)],
  ['true &&', compound((text) => `true && ${text}`)],
  ['false ||', compound((text) => `false || ${text}`)],
  ['; true', compound((text) => `${text}\ntrue`)],
  ['echo |', compound((text) => `echo | ${text}`)],
  ['xargs', (line) => (respellable(line) && /^[\w\s/.=:+~*@,%-]+$/.test(line.text) ? { text: `xargs ${line.text}`, simple: true } : line)],
];

const wrapping = fc.array(fc.constantFrom(...wrappers), { minLength: 1, maxLength: 4 });

const apply = (text: string, chain: readonly (readonly [string, Wrapper])[], simple: boolean): string =>
  chain.reduce<Line>((line, [, wrap]) => wrap(line), { text, simple }).text;

const describeFailure = (line: string, analysis: ShellAnalysis): string =>
  `${JSON.stringify(line)}\nproblems: ${analysis.problems.join('; ')}\ncommands: ${JSON.stringify(analysis.commands.map((c) => [c.program, ...c.args, c.via]))}`;

describe('command floor properties', function () {
  this.timeout(60_000);
  const analyze = useBashAnalyzer();

  /** Whether an example is one simple command at the top level (so prefix wrappers may go in front). */
  const isSimple = (line: string): boolean => {
    const analysis = analyze(line);
    return analysis.commands.length === 1 && analysis.commands[0]!.via.length === 0 && !/[|;&\n(){}]|<</.test(line);
  };

  describe('wrapping never lowers the level', () => {
    /**
     * A wrapped line the grammar cannot read (tree-sitter-bash has gaps around heredocs inside backticks and
     * quotes) must fail closed, and must stay rare, so this property cannot quietly turn into "everything is
     * unparsed".
     */
    const runs = 400;
    const maxUnparsedShare = 0.05;

    it('a hardline example stays a hit of the same hardline rule', () => {
      const examples = hardlineCommands.flatMap((rule) => rule.blocks.map((line) => ({ rule: rule.id, line, simple: isSimple(line) })));
      let unparsed = 0;
      fc.assert(
        fc.property(fc.constantFrom(...examples), wrapping, ({ rule, line, simple }, chain) => {
          const wrapped = apply(line, chain, simple);
          const analysis = analyze(wrapped);
          expect(commandFloorVerdict(analysis).verdict, describeFailure(wrapped, analysis)).to.equal('block');
          if (!analysis.parsed) return void unparsed++;
          expect(matchHardline(analysis).map((hit) => hit.ruleId), describeFailure(wrapped, analysis)).to.include(rule);
        }),
        { numRuns: runs },
      );
      expect(unparsed / runs).to.be.below(maxUnparsedShare);
    });

    it('a dangerous example stays a hit of the same dangerous rule (or becomes hardline)', () => {
      const examples = dangerousCommands.flatMap((rule) => rule.asks.map((line) => ({ rule: rule.id, line, simple: isSimple(line) })));
      let unparsed = 0;
      fc.assert(
        fc.property(fc.constantFrom(...examples), wrapping, ({ rule, line, simple }, chain) => {
          const wrapped = apply(line, chain, simple);
          const analysis = analyze(wrapped);
          const verdict = commandFloorVerdict(analysis).verdict;
          if (!analysis.parsed) {
            unparsed++;
            return void expect(verdict, describeFailure(wrapped, analysis)).to.equal('block');
          }
          const ids = [...matchDangerous(analysis), ...matchHardline(analysis)].map((hit) => hit.ruleId);
          expect(ids, describeFailure(wrapped, analysis)).to.include(rule);
          expect(verdict).to.be.oneOf(['ask', 'block']);
        }),
        { numRuns: runs },
      );
      expect(unparsed / runs).to.be.below(maxUnparsedShare);
    });
  });

  describe('no input breaks the analyzer, and what it cannot read is never allowed', () => {
    const holds = (line: string): void => {
      const analysis = analyze(line);
      expect(analysis.source).to.equal(line);
      expect(analysis.problems.length === 0).to.equal(analysis.parsed);
      const verdict = commandFloorVerdict(analysis);
      if (!analysis.parsed) {
        expect(verdict).to.include({ verdict: 'block', unparsed: true });
        expect(verdict.hits.map((hit) => hit.ruleId)).to.include(unparseableRuleId);
      }
    };

    const shellAlphabet = fc.constantFrom(
      'rm', ' -rf', ' /', ' ', '"', "'", '$(', ')', '`', '|', '&', ';', '&&', '<<', 'EOF', '\n', '{', '}', '(', 'bash',
      ' -c ', 'eval ', '\\', '*', '$', 'if ', 'then ', 'fi', 'case ', 'esac', '<(', '>', '2>&1', 'sudo ', 'f()', ':', 'x',
      '$\'', '\\x72', '#', '[[', ']]', '((', '))', 'do ', 'done', '=', '<<<', '<<-', '\t',
    );

    it('holds for random text', () => fc.assert(fc.property(fc.string({ maxLength: 200 }), holds), { numRuns: 400 }));

    it('holds for random full-Unicode text', () =>
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), holds), { numRuns: 400 }));

    it('holds for random bytes read as latin1', () =>
      fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => holds(Buffer.from(bytes).toString('latin1'))), { numRuns: 400 }));

    it('holds for random shell-like token soup', () =>
      fc.assert(fc.property(fc.array(shellAlphabet, { maxLength: 60 }).map((tokens) => tokens.join('')), holds), { numRuns: 600 }));
  });
});
