/**
 * Dangerous-but-approvable actions go to a human. What may stand in for the human, in this order: a grant a
 * human gave for this exact action (session, or once for a retrying runtime), the allowlist ("always"), then
 * the settings (`yolo`, `approvals.mode: off`). Smart mode has no risk model here yet, so it escalates to manual.
 * None of this is consulted for hardline commands: that layer has already blocked.
 */
import type { SessionGrant } from '../../session/sessionState.ts';
import type { GateInput } from '../gateInput.ts';
import type { GateLayer, LayerOutcome } from '../layer.ts';
import { layerVerdict } from '../layer.ts';
import { matchDangerous } from './dangerousCommands.ts';

export const approvalsLayer: GateLayer = {
  name: 'approvals',
  evaluate: (input) => {
    if (input.shell === null) return null;
    const hits = matchDangerous(input.shell);
    const first = hits[0];
    if (first === undefined) return null;
    const ruleReasons = [...new Set(hits.map((h) => `dangerous:${h.ruleId}`))];
    return standIn(input, ruleReasons) ?? ask(input, ruleReasons, `\`${first.command}\`: ${first.reason}`);
  },
};

const standIn = (input: GateInput, ruleReasons: readonly string[]): LayerOutcome | null => {
  const grant = matchingGrant(input);
  if (grant) return allowed([...ruleReasons, `approvals:${grant.scope}-grant`], `Approved earlier by a human (${grant.scope}).`, grant.grantId);
  if (input.allowlisted) return allowed([...ruleReasons, 'approvals:allowlist'], 'On the approval allowlist.');
  const { mode, yolo } = input.settings.approvals;
  if (yolo) return allowed([...ruleReasons, 'approvals:yolo'], 'Auto-approved: yolo is on.');
  if (mode === 'off') return allowed([...ruleReasons, 'approvals:mode-off'], 'Auto-approved: approvals.mode is off.');
  return null;
};

/** Session grants cover the same action for the session; once grants cover the next identical call. */
const matchingGrant = ({ grants, tool, fingerprint }: GateInput): SessionGrant | undefined =>
  grants.find((g) => g.tool === tool && g.fingerprint === fingerprint && g.scope !== 'once')
  ?? grants.find((g) => g.tool === tool && g.fingerprint === fingerprint);

const allowed = (reasons: readonly string[], message: string, grantId?: string): LayerOutcome =>
  grantId === undefined
    ? { verdict: layerVerdict('approvals', 'allow', reasons, message) }
    : { verdict: layerVerdict('approvals', 'allow', reasons, message), grantId };

const ask = (input: GateInput, ruleReasons: readonly string[], what: string): LayerOutcome => {
  const escalated = input.settings.approvals.mode === 'smart'
    ? [input.settings.approvals.smartModelConfigured ? 'approvals:smart-escalated' : 'approvals:smart-no-model']
    : [];
  return { verdict: layerVerdict('approvals', 'ask', [...ruleReasons, ...escalated], `Needs a human's approval — ${what}`) };
};
