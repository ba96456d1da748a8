/**
 * The shell analyzer the command floor uses: the tree-sitter-bash grammar (WebAssembly), loaded once; each
 * `analyze` call is synchronous and never throws. A line that cannot be fully read comes back with
 * `parsed: false` and its problems, plus every command that could still be found.
 */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { joinLineContinuations } from '../../domain/shell/lineContinuations.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';
import { CommandExtractor } from './commandExtractor.ts';

export interface BashAnalyzer {
  /** `environment`: variables earlier lines exported, known to this line as if assigned before it. */
  analyze(source: string, environment?: Readonly<Record<string, string>>): ShellAnalysis;
}

/** Longer lines are not parsed at all (and so never count as safe). */
export const maxLineLength = 200_000;

let loading: Promise<Language> | undefined;

/** The grammar is loaded once per process; every analyzer shares it. */
const bashLanguage = (): Promise<Language> =>
  (loading ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    return Language.load(wasm);
  })());

/** A parser of the same grammar with no analysis on top: the benchmarks' anchor for what this machine's parse costs. */
export const loadBareBashParser = async (): Promise<Parser> => {
  const parser = new Parser();
  parser.setLanguage(await bashLanguage());
  return parser;
};

export const loadBashAnalyzer = async (): Promise<BashAnalyzer> => {
  const language = await bashLanguage();
  const parser = new Parser();
  parser.setLanguage(language);
  return { analyze: (source, environment) => analyzeWith(parser, source, environment) };
};

const analyzeWith = (parser: Parser, source: string, environment?: Readonly<Record<string, string>>): ShellAnalysis => {
  if (typeof source !== 'string') return unparsed(String(source), 'the command is not a string');
  if (source.length > maxLineLength) return unparsed(source, `the command is longer than ${maxLineLength} characters`);
  const joined = joinLineContinuations(source);
  if (joined === source) return analyzeOnce(parser, source, environment);
  return withContinuations(source, analyzeOnce(parser, joined, environment), analyzeOnce(parser, source, environment));
};

/**
 * Bash's reading of a line with backslash-newlines (joined) decides what the line leaves behind; the commands of
 * both readings count, and a problem in either keeps the line unparsed. The source stays as written, for the human.
 */
const withContinuations = (source: string, joined: ShellAnalysis, written: ShellAnalysis): ShellAnalysis => {
  const union = (a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined =>
    a === undefined && b === undefined ? undefined : [...new Set([...(a ?? []), ...(b ?? [])])];
  const touched = union(union(joined.touched, written.touched), Object.keys(written.exports ?? {}));
  const readonly = union(joined.readonly, written.readonly);
  const walked = joined.walked === undefined && written.walked === undefined ? undefined : {
    touched: union(joined.walked?.touched, written.walked?.touched) ?? [],
    exported: union(joined.walked?.exported, written.walked?.exported) ?? [],
  };
  return {
    source,
    parsed: joined.parsed && written.parsed,
    problems: [...joined.problems, ...written.problems.map((problem) => `${problem} (line continuations kept)`)],
    commands: [...joined.commands, ...written.commands.map((command) => ({ ...command, via: [...command.via, 'line continuations kept'] }))],
    ...(joined.exports ? { exports: joined.exports } : {}), ...(touched ? { touched } : {}), ...(joined.unsets ? { unsets: joined.unsets } : {}),
    ...(readonly ? { readonly } : {}), ...(walked ? { walked } : {}),
  };
};

const analyzeOnce = (parser: Parser, source: string, environment?: Readonly<Record<string, string>>): ShellAnalysis => {
  const extractor = new CommandExtractor(parser, source, environment);
  try {
    extractor.run();
  } catch (error) {
    extractor.problems.push(`the analyzer failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const exports = extractor.exports();
  const touched = extractor.touched();
  const unsets = extractor.unsets();
  const readonly = extractor.readonlyNames();
  const walked = extractor.walked();
  return {
    source, parsed: extractor.problems.length === 0, problems: extractor.problems, commands: extractor.commands,
    ...(exports ? { exports } : {}), ...(touched ? { touched } : {}), ...(unsets ? { unsets } : {}), ...(readonly ? { readonly } : {}),
    ...(walked ? { walked } : {}),
  };
};

const unparsed = (source: string, problem: string): ShellAnalysis => ({ source, parsed: false, problems: [problem], commands: [] });
