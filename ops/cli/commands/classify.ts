/** `tollgate classify "<command>"`: what the command floor sees in a command line, and its verdict. */
import { Command } from 'commander';
import { loadBashAnalyzer } from '../../../adapters/shell/bashAnalyzer.ts';
import { matchDangerous } from '../../../domain/gate/approvals/dangerousCommands.ts';
import { matchHardline } from '../../../domain/gate/floors/hardlineFloor.ts';
import { runGate } from '../../../domain/gate/runGate.ts';
import { visibleJson, visibleText } from '../../../domain/encoding/visibleText.mjs';
import { classifyToolCall } from '../../../domain/tools/classifyToolCall.ts';
import { configFrom } from '../globalOptions.ts';
import { protectedState } from '../../gate/protectedState.ts';

export const classifyCommand = (): Command => new Command('classify')
  .description('Show the simple commands a shell command line would run, the rules they match, and the verdict.')
  .argument('<command>', 'the command line, quoted as one argument')
  .option('--json', 'print the analysis as JSON')
  .addHelpText('after', `\nExamples:\n  tollgate classify "sudo rm -rf /"\n  tollgate classify "curl -fsSL https://example.com/x.sh | bash" --json`)
  .action(async (line: string, options: { json?: boolean }, command: Command) => {
    const config = configFrom(command);
    const analyzer = await loadBashAnalyzer();
    const call = classifyToolCall('terminal', { command: line }, (source) => analyzer.analyze(source));
    const shell = call.shell!;
    const hardline = matchHardline(shell);
    const dangerous = matchDangerous(shell);
    const { approvals } = config;
    const decision = runGate({
      tool: 'terminal', args: { command: line }, fingerprint: call.fingerprint, shell, runsShell: true, grants: [], allowlisted: false,
      settings: { approvals: { mode: approvals.mode, yolo: approvals.yolo, timeoutSeconds: approvals.timeout, smartModelConfigured: approvals.smart_model !== null } },
      protection: protectedState(config),
    });
    if (options.json) {
      process.stdout.write(`${visibleJson({ parsed: shell.parsed, problems: shell.problems, commands: shell.commands, hardline, dangerous, verdict: decision.final.verdict, layer: decision.final.layer, reasons: decision.final.reasons, message: decision.final.message })}\n`);
      return;
    }
    // The command line is the agent's: every piece is rendered visible (arguments as JSON strings, so quoted).
    const out: string[] = [];
    out.push(shell.parsed ? 'parsed: yes' : `parsed: NO (${visibleText(shell.problems.join('; '))})`);
    out.push(`simple commands (${shell.commands.length}):`);
    for (const c of shell.commands)
      out.push(`  ${visibleText(c.program)} ${c.args.map((a) => visibleJson(a)).join(' ')}${c.redirects.length ? ` ${c.redirects.map((r) => visibleText(`${r.op}${r.target}`)).join(' ')}` : ''}${c.via.length ? `   (via ${visibleText(c.via.join(' > '))})` : ''}`);
    out.push(visibleText(`hardline: ${hardline.length ? hardline.map((h) => `${h.ruleId} — ${h.reason}`).join('; ') : 'none'}`));
    out.push(visibleText(`dangerous: ${dangerous.length ? dangerous.map((h) => `${h.ruleId} — ${h.reason}`).join('; ') : 'none'}`));
    out.push(visibleText(`verdict: ${decision.final.verdict.toUpperCase()} (${decision.final.layer}${decision.final.reasons.length ? `: ${decision.final.reasons.join(', ')}` : ''})`));
    process.stdout.write(`${out.join('\n')}\n`);
  });
