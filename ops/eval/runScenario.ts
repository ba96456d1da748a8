/**
 * Runs one scenario against a fresh, isolated gate: its own temporary ledger, home folder and clock.
 * `restart` closes the gate and opens a new one on the same ledger, so all state is rebuilt from it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Verdict } from '../../domain/gate/verdict.ts';
import type { Gate } from '../gate/gate.ts';
import { parseDurationMs } from '../config/duration.ts';
import { mergeConfig, parseConfig } from '../config/loadConfig.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { openRuntime, type Runtime } from '../runtime/openRuntime.ts';
import { sharedBashAnalyzer } from '../runtime/sharedAnalyzer.ts';
import { WrittenFiles } from './writtenFiles.ts';
import type { Scenario, ScenarioStep, ToolStep } from './scenarioSchema.ts';
import { meetsExpectation, mentionsReason } from './verdictMatches.ts';

export interface StepResult {
  readonly scenario: string;
  /** 1-based; a step inside `parallel` is `3.2`. */
  readonly step: string;
  readonly kind: ScenarioStep['kind'];
  readonly verdict: Verdict | null;
  readonly reasons: readonly string[];
  readonly message: string;
  readonly expected: string | null;
  readonly reason: string | null;
  /** null when the step had no expectation. */
  readonly passed: boolean | null;
  readonly latencyUs: number;
  readonly error?: string;
}

/** Scenario clocks start here so runs are repeatable. */
const scenarioEpoch = Date.parse('2026-01-01T09:00:00.000Z');

export const runScenario = async (scenario: Scenario): Promise<StepResult[]> => {
  const home = await mkdtemp(join(tmpdir(), 'tollgate-eval-'));
  let now = scenarioEpoch;
  const clock = () => now;
  const config = scenarioConfig(scenario, home);
  const results: StepResult[] = [];
  let runtime: Runtime | null = null;
  try {
    for (const [path, text] of Object.entries(scenario.files)) {
      await mkdir(dirname(join(home, path)), { recursive: true });
      await writeFile(join(home, path), text);
    }
    const analyzer = await sharedBashAnalyzer();
    const written = new WrittenFiles((source) => analyzer.analyze(source));
    const options = { clock, expiryTimers: false, writtenFiles: written.files };
    runtime = await openRuntime(config, options);
    const context: RunContext = { scenario, lastAsk: null, lastAskedCall: null, written };
    for (const [index, step] of scenario.steps.entries()) {
      const label = String(index + 1);
      switch (step.kind) {
        case 'restart':
          await runtime.close();
          runtime = await openRuntime(config, options);
          results.push(plain(scenario, label, step));
          break;
        case 'advance':
          now += parseDurationMs(step.advance);
          await runtime.gate.expireDue();
          results.push(plain(scenario, label, step));
          break;
        case 'parallel': {
          const gate = runtime.gate;
          const outcomes = await Promise.all(step.parallel.map((s, i) => runTool(gate, context, { ...s, kind: 'tool' }, `${label}.${i + 1}`)));
          results.push(...outcomes);
          break;
        }
        default:
          results.push(await runStep(runtime.gate, context, step, label));
      }
    }
  } catch (error) {
    results.push({ scenario: scenario.id, step: String(results.length + 1), kind: 'user', verdict: null, reasons: [], message: '',
      expected: 'to run', reason: null, passed: false, latencyUs: 0, error: (error as Error).message });
  } finally {
    await runtime?.close().catch(() => undefined);
    await rm(home, { recursive: true, force: true });
  }
  return results;
};

interface RunContext {
  readonly scenario: Scenario;
  lastAsk: string | null;
  /** The call the latest ask held: it runs (and writes) once a human lets it. */
  lastAskedCall: ToolStep | null;
  /** What the calls that ran wrote, for the floor's reading of scripts in later steps. */
  readonly written: WrittenFiles;
}

const scenarioConfig = (scenario: Scenario, home: string): TollgateConfig => {
  const isolated = { ledger: { url: `sqlite:${join(home, '.tollgate', 'ledger.db')}` }, data: { dir: join(home, '.tollgate') } };
  return parseConfig(mergeConfig(isolated, scenario.config ?? {}), `scenario ${scenario.id} config`);
};

const runStep = async (gate: Gate, context: RunContext, step: ScenarioStep, label: string): Promise<StepResult> => {
  const { scenario } = context;
  switch (step.kind) {
    case 'user':
      await gate.userMessage({
        sessionId: step.session ?? scenario.session.id, text: step.user,
        senderId: step.sender ?? scenario.session.owner ?? null, platform: scenario.session.platform,
      });
      return plain(scenario, label, step);
    case 'tool':
      return runTool(gate, context, step, label);
    case 'reply': {
      const started = process.hrtime.bigint();
      const verdict = await gate.output({ sessionId: scenario.session.id, text: step.reply });
      return judged(scenario, label, step, verdict.verdict, verdict.reasons, verdict.message, started, step.expect, step.reason);
    }
    case 'approve': {
      if (context.lastAsk === null) throw new Error(`step ${label}: there is no earlier "ask" to answer`);
      await gate.answer(context.lastAsk, step.approve, 'scenario');
      if (step.approve !== 'deny' && context.lastAskedCall !== null) ranCall(context, context.lastAskedCall);
      context.lastAsk = null;
      context.lastAskedCall = null;
      return plain(scenario, label, step);
    }
    default:
      throw new Error(`Assertion failed: step kind ${step.kind} is handled by the runner`);
  }
};

const runTool = async (gate: Gate, context: RunContext, step: ToolStep, label: string): Promise<StepResult> => {
  const started = process.hrtime.bigint();
  const verdict = await gate.toolCall({
    sessionId: step.session ?? context.scenario.session.id, tool: step.tool, args: step.args,
    parentSessionId: step.parent ?? null, resumption: 'held', cwd: stepFolder(step.cwd),
  });
  if (verdict.verdict === 'ask') { context.lastAsk = verdict.approvalId; context.lastAskedCall = step; }
  if (verdict.verdict === 'allow') ranCall(context, step);
  return judged(context.scenario, label, step, verdict.verdict, verdict.reasons, verdict.message, started, step.expect, step.reason);
};

const ranCall = (context: RunContext, step: ToolStep): void => context.written.record(step.tool, step.args, stepFolder(step.cwd));

/** A step's `cwd`: absolute, `~/…` below the user's home, or relative to where eval runs; none means unknown. */
const stepFolder = (cwd: string | undefined): string | null =>
  cwd === undefined ? null : cwd === '~' || cwd.startsWith('~/') ? join(homedir(), cwd.slice(1)) : resolve(cwd);

const judged = (
  scenario: Scenario, step: string, s: ScenarioStep, verdict: Verdict, reasons: readonly string[], message: string,
  started: bigint, expect: string | undefined, reason: string | undefined,
): StepResult => {
  const latencyUs = Number(process.hrtime.bigint() - started) / 1000;
  const verdictOk = expect === undefined ? null : meetsExpectation(expect as never, verdict);
  const reasonOk = reason === undefined ? null : mentionsReason(reason, reasons, message);
  const passed = verdictOk === null && reasonOk === null ? null : (verdictOk ?? true) && (reasonOk ?? true);
  return { scenario: scenario.id, step, kind: s.kind, verdict, reasons, message, expected: expect ?? null, reason: reason ?? null, passed, latencyUs };
};

const plain = (scenario: Scenario, step: string, s: ScenarioStep): StepResult =>
  ({ scenario: scenario.id, step, kind: s.kind, verdict: null, reasons: [], message: '', expected: null, reason: null, passed: null, latencyUs: 0 });
