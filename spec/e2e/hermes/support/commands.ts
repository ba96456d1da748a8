/**
 * The commands the scripted model asks Hermes to run, and the checks that say tollgate (not Hermes) stopped one.
 *
 * The hardline command must be harmless even if every guard failed, and still show whether it ran:
 *
 *     rm -f <work>/<sentinel> && false && rm -rf /
 *
 * Run by bash, `rm -f` deletes the test's own sentinel (so "the sentinel still exists" proves the line never ran),
 * then `false` fails and `&&` stops the list: `rm -rf /` can never execute, whatever happens to the guards (and GNU
 * rm would refuse `/` without --no-preserve-root anyway). tollgate parses the whole line with the bash grammar and
 * finds the simple command `rm -rf /` → hardline:delete-filesystem-root, so the line is blocked as a whole.
 *
 * Hermes 0.19 has a hardline floor of its own in the terminal tool (tools/approval.py `detect_hardline_command`),
 * which would also stop this line if tollgate let it through. So "not executed" alone does not prove tollgate
 * worked: the checks below also require tollgate's block in the ledger and tollgate's message as the tool result
 * the model received — Hermes' own floor answers "BLOCKED (hardline): …", which must not appear.
 */
import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import type { HermesRun } from './runHermes.ts';
import { ofType, type RecordedTollgateEvent } from './tollgateDaemon.ts';
import { toolResult, type World } from './world.ts';

export interface HardlineCommand { readonly command: string; readonly sentinel: string }

/** Creates the sentinel (once) and returns the line that would delete it. */
export const hardlineCommand = (world: World, name = 'hardline-sentinel'): HardlineCommand => {
  const sentinel = world.file(name);
  if (!existsSync(sentinel)) writeFileSync(sentinel, 'deleted only if the hardline line ran\n');
  return { command: `rm -f ${sentinel} && false && rm -rf /`, sentinel };
};

export const HERMES_OWN_HARDLINE_MESSAGE = 'BLOCKED (hardline)';

/** The tool call `callId` was blocked by tollgate's hardline floor and never ran; the model read tollgate's message. */
export const expectTollgateBlock = (
  world: World, run: HermesRun, events: readonly RecordedTollgateEvent[], callId: string, hardline: HardlineCommand,
): void => {
  expect(existsSync(hardline.sentinel), `the hardline line ran (sentinel deleted)\n${run.describe()}`).to.equal(true);
  const decided = ofType(events, 'ToolCallDecided').filter((e) => e.data.args.command === hardline.command);
  expect(decided, `tollgate never decided the hardline call\n${run.describe()}`).to.have.length.greaterThan(0);
  for (const decision of decided) {
    expect(decision.data.verdict).to.equal('block');
    expect(decision.data.layer).to.equal('hardline');
    expect(decision.data.reasons).to.include('hardline:delete-filesystem-root');
  }
  const result = toolResult(world.model, callId);
  expect(result, `the model never received a result for ${callId}\n${run.describe()}`).to.not.equal(undefined);
  const error = result?.json?.error;
  expect(error, `tool result was not a block: ${result?.raw}`).to.be.a('string');
  expect(error as string).to.contain(decided[0]!.data.message);
  expect(error as string).to.not.contain(HERMES_OWN_HARDLINE_MESSAGE);
};
