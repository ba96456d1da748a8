/**
 * The gate: every layer in order, most restrictive wins (BLOCK beats ASK beats ALLOW; among equals the
 * earliest layer stands). A layer in observe mode never stops a call; its objection is kept as would-block.
 * A block from a floor ends the evaluation: nothing after it could lift it.
 */
import type { GateInput } from './gateInput.ts';
import type { GateLayer } from './layer.ts';
import { layerVerdict } from './layer.ts';
import { approvalsLayer } from './approvals/approvalsLayer.ts';
import { hardlineLayer } from './layers/hardlineLayer.ts';
import { selfProtectionLayer } from './selfProtection/selfProtectionLayer.ts';
import { shellParseLayer } from './layers/shellParseLayer.ts';
import { isStricter, type LayerVerdict } from './verdict.ts';

/** Later guards (prohibitions, policy, provenance, leak) slot in here, in this order, after the two floors. */
export const gateLayers: readonly GateLayer[] = [shellParseLayer, hardlineLayer, selfProtectionLayer, approvalsLayer];

export interface GateDecision {
  readonly final: LayerVerdict;
  readonly wouldBlock: readonly LayerVerdict[];
  /** The grant that let a dangerous action through. */
  readonly grantId: string | null;
}

export const runGate = (input: GateInput, layers: readonly GateLayer[] = gateLayers): GateDecision => {
  let final: LayerVerdict | null = null;
  let grantId: string | null = null;
  const wouldBlock: LayerVerdict[] = [];
  let standIn: LayerVerdict | null = null;
  const allowReasons: string[] = [];
  for (const layer of layers) {
    const outcome = layer.evaluate(input);
    if (outcome === null) continue;
    const { verdict } = outcome;
    if (verdict.verdict === 'allow') {
      allowReasons.push(...verdict.reasons);
      standIn = verdict;
      if (outcome.grantId !== undefined) grantId = outcome.grantId;
      continue;
    }
    if (verdict.mode === 'observe') { wouldBlock.push(verdict); continue; }
    if (final === null || isStricter(verdict.verdict, final.verdict)) final = verdict;
    if (final.verdict === 'block') break;
  }
  if (final !== null) return { final, wouldBlock, grantId: null };
  // An allow that a layer spoke for (a grant, yolo) names that layer; otherwise no layer objected.
  const allowed = standIn === null
    ? layerVerdict('gate', 'allow', [], 'Allowed: no guard objected.')
    : { ...standIn, reasons: allowReasons };
  return { final: allowed, wouldBlock, grantId };
};
