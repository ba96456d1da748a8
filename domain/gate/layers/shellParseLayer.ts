/** A command line the grammar could not fully read is never treated as safe: it is blocked, whatever the mode. */
import type { GateLayer } from '../layer.ts';
import { layerVerdict } from '../layer.ts';

export const shellParseLayer: GateLayer = {
  name: 'parse',
  evaluate: ({ runsShell, shell }) => {
    if (!runsShell) return null;
    if (shell === null)
      return { verdict: layerVerdict('parse', 'block', ['parse:shell-missing'], 'The command line is missing, so it cannot be checked.') };
    if (shell.parsed) return null;
    const where = shell.problems.slice(0, 3).join('; ');
    return { verdict: layerVerdict('parse', 'block', ['parse:shell-unparseable'], `The command line could not be parsed (${where}); it is not run unchecked.`) };
  },
};
