/**
 * The self-protection floor (seed 000 G9; seed 003 T4, T5): the agent may not reach tollgate's state, code,
 * sockets and processes, nor the runtime's configuration. Its blocks are a floor — no grant, allowlist, yolo or
 * approvals.mode lifts them, and the gate stops there. Changes elsewhere inside a Hermes home (and cross-profile
 * writes) only ask; that ask is lifted the way approvals are (a grant, the allowlist, yolo, mode off).
 */
import type { GateInput } from '../gateInput.ts';
import type { GateLayer, LayerOutcome } from '../layer.ts';
import { layerVerdict } from '../layer.ts';
import { noProtectionFacts } from './protectionFacts.ts';
import { startDirectory } from './callPathFacts.ts';
import { protectionIndex, withCallFacts } from './protectedPaths.ts';
import { commandFindings, commandRuleReasons, toolCallFindings, type CommandRuleId } from './commandRules.ts';
import { lineScope } from './shellScope.ts';
import { protectionRules, type SelfProtectionId } from './shellRules.ts';
import { toolFindings } from './toolRules.ts';
import { runsInUnknownDirectory } from '../../tools/shellTools.ts';

interface Finding {
  readonly id: SelfProtectionId | CommandRuleId;
  readonly verdict: 'block' | 'ask';
  readonly what: string;
  /** The command that reached it, for command lines. */
  readonly command?: string;
}

const reasonOf: Readonly<Record<SelfProtectionId | CommandRuleId, string>> = { ...Object.fromEntries(protectionRules.map((r) => [r.id, r.reason])), ...commandRuleReasons } as never;

export const findSelfProtection = (input: Pick<GateInput, 'tool' | 'args' | 'shell' | 'protection' | 'pathFacts' | 'scripts' | 'directoryLost' | 'cdpathSet' | 'unknownVariables' | 'exportedHome'>): Finding[] => {
  const index = withCallFacts(protectionIndex(input.protection ?? noProtectionFacts), input.pathFacts);
  // Relative paths resolve against the tool's workdir, else the agent's working directory; unknown, by their tails.
  // `process submit` types into a background shell whose `cd`s the gate never saw, an MCP shell runs where its
  // server is: the folder is lost.
  const unfollowed = runsInUnknownDirectory(input.tool, input.args);
  const cwd = unfollowed ? null : input.pathFacts?.cwd ?? null;
  // Lost (the terminal went untracked), not merely unreported: relative paths may be inside what is protected.
  const lost = unfollowed || (cwd === null && input.directoryLost === true);
  const findings: Finding[] = toolFindings(input.tool, input.args, index, cwd, lost);
  findings.push(...toolCallFindings(input.tool, input.args, index, cwd, lost, input.scripts ?? {}));
  if (input.shell !== null) {
    const workdir = typeof input.args['workdir'] === 'string' ? input.args['workdir'] : null;
    const unknown = new Set(input.unknownVariables ?? []);
    const variables = unknown.size === 0 && (input.exportedHome ?? null) === null ? undefined
      : { home: unknown.has('HOME') ? null : input.exportedHome ?? undefined, unknown };
    const scope = lineScope(input.shell, index, startDirectory(workdir, cwd), lost, input.cdpathSet === true, variables);
    for (const rule of protectionRules) {
      for (const command of input.shell.commands) {
        const what = rule.find(command, scope);
        if (what !== null) findings.push({ id: rule.id, verdict: rule.verdict, what, command: command.text });
      }
    }
    findings.push(...commandFindings(input.shell, scope, input.scripts ?? {}));
  }
  return findings;
};

export const selfProtectionLayer: GateLayer = {
  name: 'self-protection',
  evaluate: (input) => {
    const findings = findSelfProtection(input);
    if (findings.length === 0) return null;
    const blocks = findings.filter((f) => f.verdict === 'block');
    if (blocks.length > 0) return { verdict: layerVerdict('self-protection', 'block', reasons(blocks), blockMessage(blocks[0]!)) };
    return liftedAsk(input, findings) ?? { verdict: layerVerdict('self-protection', 'ask', reasons(findings), askMessage(findings[0]!)) };
  },
};

const reasons = (findings: readonly Finding[]): string[] => [...new Set(findings.map((f) => `self-protection:${f.id}`))];

const blockMessage = (f: Finding): string =>
  `Blocked${f.command === undefined ? '' : ` \`${f.command}\``}: ${reasonOf[f.id]} (${f.what}) This protects the guard itself; no approval, allowlist or setting lifts it.`;

const askMessage = (f: Finding): string =>
  `Needs a human's approval — ${f.command === undefined ? '' : `\`${f.command}\`: `}${reasonOf[f.id]} (${f.what})`;

/** The Hermes-home ask stands down as approvals do: a grant for this exact action, the allowlist, yolo, mode off. */
const liftedAsk = (input: GateInput, findings: readonly Finding[]): LayerOutcome | null => {
  const own = reasons(findings);
  const grant = input.grants.find((g) => g.tool === input.tool && g.fingerprint === input.fingerprint && g.scope !== 'once')
    ?? input.grants.find((g) => g.tool === input.tool && g.fingerprint === input.fingerprint);
  if (grant !== undefined) return { verdict: layerVerdict('self-protection', 'allow', [...own, `approvals:${grant.scope}-grant`], `Approved earlier by a human (${grant.scope}).`), grantId: grant.grantId };
  if (input.allowlisted) return { verdict: layerVerdict('self-protection', 'allow', [...own, 'approvals:allowlist'], 'On the approval allowlist.') };
  const { mode, yolo } = input.settings.approvals;
  if (yolo) return { verdict: layerVerdict('self-protection', 'allow', [...own, 'approvals:yolo'], 'Auto-approved: yolo is on.') };
  if (mode === 'off') return { verdict: layerVerdict('self-protection', 'allow', [...own, 'approvals:mode-off'], 'Auto-approved: approvals.mode is off.') };
  return null;
};
