/**
 * The parsed command line is recorded with every tool call and read back by replay. If the event schema dropped a
 * field the analyzer fills, replay would judge a poorer command (it once turned `cd / && rm -rf *` from block into
 * ask). Every rule example goes through the schema and must come back unchanged.
 */
import { expect } from 'chai';
import { shellAnalysisSchema } from '../../../domain/events/schemas.ts';
import { dangerousCommands } from '../../../domain/gate/approvals/dangerousCommands.ts';
import { hardlineCommands } from '../../../domain/gate/floors/hardlineCommands.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

describe('shell analyses in the ledger', () => {
  const analyze = useBashAnalyzer();

  it('keeps every field of every rule example through the event schema', () => {
    const lines = [
      ...hardlineCommands.flatMap((r) => [...r.blocks, ...r.allows]),
      ...dangerousCommands.flatMap((r) => [...r.asks, ...r.allows]),
    ];
    expect(lines.length).to.be.greaterThan(100);
    for (const line of lines) {
      const analysis = analyze(line);
      expect(shellAnalysisSchema.parse(analysis), line).to.deep.equal(analysis);
    }
  });
});
