/** The part of the gate the HTTP layer uses (type only: the daemon passes the real Gate, tests may pass a double). */
import type { Gate } from '../../ops/gate/gate.ts';

export type DaemonGate = Pick<Gate,
  'userMessage' | 'sessionSeen' | 'subagentStarted' | 'toolCall' | 'output' | 'answer' | 'waitForAnswer' | 'toolResult' | 'endSession' | 'recordRejection'
  | 'projections' | 'ledger' | 'config' | 'registerRuntime' | 'runtimes' | 'revokeAllowlistEntry'>;
