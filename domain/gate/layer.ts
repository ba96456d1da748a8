/** One layer of the gate: a pure function from the proposed call to a verdict (null: no objection). */
import type { GateInput } from './gateInput.ts';
import type { LayerName, LayerVerdict } from './verdict.ts';

export interface LayerOutcome {
  readonly verdict: LayerVerdict;
  /** A grant that let the call through and should be consumed if once-scoped. */
  readonly grantId?: string;
}

export interface GateLayer {
  readonly name: LayerName;
  readonly evaluate: (input: GateInput) => LayerOutcome | null;
}

export const layerVerdict = (
  layer: LayerName, verdict: LayerVerdict['verdict'], reasons: readonly string[], message: string,
  mode: LayerVerdict['mode'] = 'enforce',
): LayerVerdict => ({ layer, verdict, reasons, message, mode });
