/**
 * One line per recorded event, for people reading `audit` and `tail`. Everything in it may come from the agent
 * (commands, paths, session ids), so the whole line is rendered visible: an escape sequence shows as `\x1b`.
 */
import type { TollgateEvent } from '../../domain/events/catalogue.ts';
import { visibleText } from '../../domain/encoding/visibleText.mjs';

export interface EventLine {
  readonly position: number;
  readonly stream: string;
  readonly recordedAt: string;
  readonly event: TollgateEvent;
}

export const describeEvent = (line: EventLine): string => visibleText(describeRaw(line));

const describeRaw = ({ position, stream, recordedAt, event }: EventLine): string => {
  const head = `#${position} ${recordedAt} ${stream}`;
  switch (event.type) {
    case 'ToolCallDecided': {
      const d = event.data;
      const what = d.shell ? d.shell.source : JSON.stringify(d.args);
      return `${head} ${d.verdict.toUpperCase()} ${d.tool} ${truncate(what)} — ${d.layer}${d.reasons.length ? ` [${d.reasons.join(', ')}]` : ''}${d.approvalId ? ` approval ${d.approvalId}` : ''}${d.wouldBlock.length ? ` (would block: ${d.wouldBlock.map((w) => w.layer).join(', ')})` : ''}`;
    }
    case 'OutputChecked': return `${head} ${event.data.verdict.toUpperCase()} ${event.data.channel} (${event.data.length} chars) — ${event.data.layer}`;
    case 'ApprovalRequested': return `${head} ASKED ${event.data.approvalId}: ${truncate(event.data.summary)} (expires ${event.data.expiresAt})`;
    case 'ApprovalAnswered': return `${head} ANSWERED ${event.data.approvalId}: ${event.data.answer}${event.data.answeredBy ? ` by ${event.data.answeredBy}` : ''}`;
    case 'ApprovalExpired': return `${head} EXPIRED ${event.data.approvalId} (counts as deny)`;
    case 'GrantIssued': return `${head} GRANT ${event.data.scope} for ${truncate(event.data.summary)}`;
    case 'GrantConsumed': return `${head} GRANT USED ${event.data.grantId} by call ${event.data.callId}`;
    case 'RequestRejected': return `${head} REJECTED ${event.data.endpoint}: ${truncate(event.data.problem)}`;
    case 'UserMessageReceived': return `${head} USER MESSAGE (${event.data.length} chars)`;
    case 'ConfigLoaded': {
      const { path, digest, settings: c } = event.data;
      return `${head} CONFIG ${path ?? 'built-in defaults'} (sha256 ${digest.slice(0, 12)}…): approvals.mode ${c.approvalsMode}, yolo ${c.yolo}${c.outOfBand === null ? '' : `, out_of_band ${c.outOfBand}`}, allowlist ${c.allowlistLength}`;
    }
    case 'CheckpointRejected': return `${head} CHECKPOINT REJECTED ${event.data.projection}: ${event.data.problem} (rebuilt from the ledger)`;
    case 'RegistrationDropped': return `${head} REGISTRATION DROPPED ${event.data.registrationId}: ${event.data.problem}`;
    default: return `${head} ${event.type}`;
  }
};

const truncate = (text: string, max = 100): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
