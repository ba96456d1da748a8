/**
 * The words a person typed, out of the user message Hermes hands to `pre_llm_call`. Hermes decorates that
 * message (reply pointers, attachment notes, @ reference blocks, skill bodies, system and model-switch notes,
 * quoted replies, channel backfill) and also writes whole turns itself (compaction scaffolding, background
 * process notices, goal continuations); other agents (curator, subagents, cron) and webhooks fire the hook with
 * text nobody typed. Only what remains after removing all of that becomes `UserMessageReceived`.
 *
 * Pure: no I/O, no clock. The rules are data in `hermesMarkers.ts`; removing too much is the safe direction.
 */
import {
  cutBefore, hermesTurns, leadingBlocks, localPlatforms, nonUserPlatforms, skillMarkers, trailingBlocks,
  type BlockEnd, type LeadingBlock,
} from './hermesMarkers.ts';

export interface HermesTurnInput {
  readonly userMessage: string;
  readonly platform?: string | null;
  readonly isFirstTurn?: boolean | null;
  /** The plugin sent only the head of a message too large to send whole. */
  readonly truncated?: boolean | null;
}

export type CapturedWords =
  | { readonly kind: 'typed'; readonly text: string; readonly removed: readonly string[] }
  | { readonly kind: 'skip'; readonly reason: string; readonly removed: readonly string[] };

/** Every block is at most this many: a message made of more is not a person's (and the loop stays bounded). */
const maxBlocks = 64;

export const captureHermesUserWords = (input: HermesTurnInput): CapturedWords => {
  const platform = (input.platform ?? '').trim().toLowerCase();
  const agent = nonUserPlatforms.find((p) => p.platform === platform);
  if (agent) return skip(`platform:${agent.platform}`);
  if (input.truncated) return skip('too-long');

  const whole = input.userMessage;
  const head = whole.trimStart();
  if (!head.startsWith(skillMarkers.prefix)) {
    const turn = hermesTurns.find((t) => head.startsWith(t.prefix));
    if (turn) return skip(`hermes-turn:${turn.id}`);
  }

  const removed: string[] = [];
  let text = whole;
  for (const block of trailingBlocks) {
    const at = trailingAt(text, block.marker);
    if (at >= 0) { text = text.slice(0, at); removed.push(block.id); }
  }
  for (const cut of cutBefore) {
    const at = text.lastIndexOf(cut.marker);
    if (at >= 0) { text = text.slice(at + cut.marker.length); removed.push(cut.id); }
  }

  const gateway = !localPlatforms.includes(platform);
  const groups = new Set<string>();
  for (let n = 0; n < maxBlocks; n++) {
    const rest = text.trimStart();
    const hit = firstLeading(rest, gateway, groups, removed);
    if (hit === null) break;
    text = hit.rest;
    removed.push(hit.block.id);
    if (hit.block.group !== undefined) groups.add(hit.block.group);
  }

  if (removed.length > 0) text = text.trim();
  if (text.trim() === '') return skip('nothing-typed', removed);
  // A Hermes turn found under a removed block (a resume note before a compaction summary, say) is still Hermes'.
  if (removed.length > 0) {
    const turn = hermesTurns.find((t) => text.startsWith(t.prefix));
    if (turn) return skip(`hermes-turn:${turn.id}`, removed);
  }
  return { kind: 'typed', text, removed };
};

const skip = (reason: string, removed: readonly string[] = []): CapturedWords => ({ kind: 'skip', reason, removed });

/** Where a trailing block starts: at the very start of the message or after a blank line; -1 when absent. */
const trailingAt = (text: string, marker: string): number => {
  if (text.startsWith(marker)) return 0;
  const at = text.indexOf(`\n\n${marker}`);
  return at;
};

const firstLeading = (text: string, gateway: boolean, groups: ReadonlySet<string>, removed: readonly string[]): { block: LeadingBlock; rest: string } | null => {
  for (const block of leadingBlocks) {
    if (block.gatewayOnly && !gateway) continue;
    if (block.after !== undefined && !groups.has(block.after)) continue;
    if (block.once && removed.includes(block.id)) continue;
    const opening = openingLength(text, block.opens);
    if (opening === null) continue;
    if (block.ends.kind === 'exact' && typeof block.opens === 'string' && text.trim() !== block.opens && !isFollowedByBreak(text, opening)) continue;
    return { block, rest: restAfter(text, opening, block.ends) };
  }
  return null;
};

const openingLength = (text: string, opens: string | RegExp): number | null => {
  if (typeof opens === 'string') return text.startsWith(opens) ? opens.length : null;
  const match = opens.exec(text);
  return match !== null && match.index === 0 ? match[0].length : null;
};

/** A fixed block stands alone on its line(s): end of message or a line break follows it. */
const isFollowedByBreak = (text: string, at: number): boolean => at === text.length || text[at] === '\n';

/** What follows the block; '' when its end cannot be found (then the rest of the message goes with it). */
const restAfter = (text: string, opening: number, end: BlockEnd): string => {
  if (end.kind === 'skill-instruction') return skillInstruction(text) ?? '';
  const at = blockEnd(text, opening, end);
  return at === null ? '' : text.slice(at);
};

const blockEnd = (text: string, opening: number, end: Exclude<BlockEnd, { kind: 'skill-instruction' }>): number | null => {
  switch (end.kind) {
    case 'exact': return opening;
    case 'rest': return null;
    case 'through': {
      const limit = end.within === undefined ? text.length : advanceCodePoints(text, opening, end.within);
      const at = end.pick === 'first'
        ? text.indexOf(end.text, opening)
        : text.lastIndexOf(end.text, limit);
      if (at >= opening && at <= limit) return at + end.text.length;
      if (end.orAtEnd !== undefined && text.endsWith(end.orAtEnd) && text.length - end.orAtEnd.length >= opening) return text.length;
      return null;
    }
    case 'anchored': {
      const anchor = end.pick === 'first' ? text.indexOf(end.anchor, opening) : text.lastIndexOf(end.anchor);
      if (anchor < opening) return null;
      const then = text.indexOf(end.then, anchor + end.anchor.length);
      return then < 0 ? null : then + end.then.length;
    }
  }
};

/** The UTF-16 index `count` code points after `from` (Hermes cuts snippets in Python code points). */
const advanceCodePoints = (text: string, from: number, count: number): number => {
  let at = from;
  for (let n = 0; n < count && at < text.length; n++) {
    const code = text.charCodeAt(at);
    at += code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1;
  }
  return at;
};

/**
 * The instruction typed after a skill slash command, as Hermes' own `extract_user_instruction_from_skill_message`
 * finds it (agent/skill_commands.py:58-112): the last single-skill instruction (the skill body may quote the
 * marker), or the bundle's first; null when the invocation carried none (nothing typed).
 */
const skillInstruction = (text: string): string | null => {
  const m = skillMarkers;
  let instruction: string | null = null;
  if (text.includes(m.bundle)) {
    const at = text.indexOf(m.bundleInstruction);
    if (at >= 0) {
      let rest = text.slice(at + m.bundleInstruction.length);
      const first = rest.indexOf(m.bundleFirstSkill);
      if (first >= 0) rest = rest.slice(0, first);
      instruction = rest;
    }
  } else if (text.includes(m.single)) {
    const at = text.lastIndexOf(m.singleInstruction);
    if (at >= 0) {
      let rest = text.slice(at + m.singleInstruction.length);
      const runtime = rest.indexOf(m.runtimeNote);
      if (runtime >= 0) rest = rest.slice(0, runtime);
      instruction = rest;
    }
  }
  const trimmed = instruction?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};
