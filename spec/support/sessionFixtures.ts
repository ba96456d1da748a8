/** Commands and events for decider specs: fixed clock, fixed ids, hand-built shell analyses (no parser needed). */
import { event, type TollgateEvent } from '../../domain/events/catalogue.ts';
import type { GateSettings, ProposeToolCall } from '../../domain/session/commands.ts';
import type { ShellAnalysis, SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { actionFingerprint } from '../../domain/tools/actionFingerprint.ts';

export const at = (seconds = 0): string => new Date(Date.parse('2026-03-01T10:00:00.000Z') + seconds * 1000).toISOString();

export const manualSettings: GateSettings = { approvals: { mode: 'manual', yolo: false, timeoutSeconds: 60, smartModelConfigured: false } };

export const simple = (text: string): SimpleCommand => {
  const [program = '', ...args] = text.split(' ');
  return { program, programPath: program, args, redirects: [], pipedFrom: [], via: [], text };
};

/** A one-command analysis, as the parser would give for a plain `program arg arg` line. */
export const analysed = (line: string): ShellAnalysis => ({ source: line, parsed: true, problems: [], commands: [simple(line)] });

export const sessionStarted = (sessionId = 'main'): TollgateEvent =>
  event('SessionStarted', { sessionId, platform: 'cli', parentSessionId: null, owner: null, at: at(0) });

export const userMessageReceived = (sessionId = 'main'): TollgateEvent =>
  event('UserMessageReceived', { sessionId, textRef: 'ref-1', textDigest: 'd'.repeat(64), length: 12, senderId: null, platform: 'cli', at: at(0) });

export const proposeTerminal = (line: string, overrides: Partial<ProposeToolCall['data']> = {}): ProposeToolCall => ({
  type: 'ProposeToolCall',
  data: {
    sessionId: 'main', now: at(1), callId: 'call-1', tool: 'terminal', args: { command: line },
    fingerprint: actionFingerprint('terminal', { commandLine: line }), runsShell: true, shell: analysed(line),
    parentSessionId: null, parentKnown: false, allowlisted: false, settings: manualSettings, resumption: 'held',
    approvalId: 'approval-1', ...overrides,
  },
});
