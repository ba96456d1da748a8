/** The floor nothing lifts: hardline commands are blocked under every mode, yolo and allowlist included. */
import { matchHardline } from '../floors/hardlineFloor.ts';
import type { GateLayer } from '../layer.ts';
import { layerVerdict } from '../layer.ts';

export const hardlineLayer: GateLayer = {
  name: 'hardline',
  evaluate: ({ shell }) => {
    if (shell === null) return null;
    const hits = matchHardline(shell);
    const first = hits[0];
    if (first === undefined) return null;
    return {
      verdict: layerVerdict('hardline', 'block', unique(hits.map((h) => `hardline:${h.ruleId}`)),
        `Blocked \`${first.command}\`: ${first.reason} It is on the hardline list, which no approval or setting lifts; if you really mean it, run it yourself outside the agent.`),
    };
  },
};

const unique = (items: readonly string[]): string[] => [...new Set(items)];
