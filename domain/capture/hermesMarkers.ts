/**
 * What Hermes Agent adds to a turn's user message before `pre_llm_call` sees it, and the turns it writes itself.
 * Pure data, read by `hermesUserWords.ts`. Every row names where it comes from in hermes-agent 0.19.0 (the pinned
 * version; paths relative to its site-packages). A row marked `since: 'newer'` does not exist in 0.19: it is kept
 * because a newer Hermes writes it (seed 002, "What is captured"), and matching it costs nothing on 0.19.
 *
 * Removing too much is safe (some typed words are not recorded); keeping Hermes' text as the user's is not. So a
 * block whose content can be anything (a quoted reply, an image description, another person's message) is cut
 * at its LAST possible boundary, and a block whose end cannot be found takes the rest of the message with it.
 *
 * Each row carries one example (the message as Hermes builds it, and what the person typed, or `null` for
 * nothing); the spec runs every example, and `spec/domain/capture/hermesFixtures.json` adds cases built by the
 * installed Hermes' own functions.
 */

export type HermesVersion = '0.19' | 'newer';

export interface MarkerExample {
  readonly message: string;
  /** The typed words left over, or null when nothing typed remains (nothing is recorded). */
  readonly typed: string | null;
  readonly platform?: string;
}

/** Agents that are not the person: their `pre_llm_call` text is never captured. */
export interface NonUserPlatform {
  readonly platform: string;
  readonly who: string;
  readonly source: string;
}

export const nonUserPlatforms: readonly NonUserPlatform[] = [
  { platform: 'curator', who: 'the skill curator fork', source: 'agent/curator.py:1931' },
  { platform: 'subagent', who: 'a delegate_task child (its goal is written by the parent agent)', source: 'tools/delegate_tool.py:1382' },
  { platform: 'cron', who: 'a scheduled cron run (the job prompt, not a person typing now)', source: 'cron/scheduler.py:3368' },
  { platform: 'webhook', who: 'a webhook delivery (another system posted it)', source: 'gateway/config.py:294, gateway/platforms/webhook.py' },
  { platform: 'msgraph_webhook', who: 'a Microsoft Graph webhook delivery', source: 'gateway/config.py:295, gateway/platforms/msgraph_webhook.py' },
];

/** Platforms where the person types into Hermes directly (no gateway sender labels). */
export const localPlatforms: readonly string[] = ['', 'cli', 'tui', 'acp', 'local'];

/** A turn Hermes wrote itself: a message that starts with one of these records nothing. */
export interface HermesTurn {
  readonly id: string;
  readonly prefix: string;
  readonly source: string;
  readonly since: HermesVersion;
  readonly example: MarkerExample;
}

export const hermesTurns: readonly HermesTurn[] = [
  { id: 'system-prompt-turn', prefix: '[System: ', since: '0.19',
    source: 'agent/conversation_loop.py:456-491 and :5469, agent/conversation_compression.py:554-556 (Hermes\' own list of synthetic user prefixes)',
    example: { message: '[System: Your previous response was truncated by the output length limit. Continue exactly where you left off.]', typed: null } },
  { id: 'context-compaction', prefix: '[CONTEXT COMPACTION', since: '0.19', source: 'agent/context_compressor.py:88, :205, :232, :256',
    example: { message: '[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below.\n\nThe user asked for a report.', typed: null } },
  { id: 'context-summary', prefix: '[CONTEXT SUMMARY]:', since: '0.19', source: 'agent/context_compressor.py:117 (LEGACY_SUMMARY_PREFIX)',
    example: { message: '[CONTEXT SUMMARY]: the user wants a report', typed: null } },
  { id: 'prior-context', prefix: '[PRIOR CONTEXT', since: '0.19', source: 'agent/context_compressor.py:190 (_MERGED_PRIOR_CONTEXT_HEADER)',
    example: { message: '[PRIOR CONTEXT — for reference only; not a new message]\nDelete the old logs.', typed: null } },
  { id: 'todo-snapshot', prefix: '[Your active task list', since: '0.19', source: 'tools/todo_tool.py:138, agent/conversation_compression.py:557',
    example: { message: '[Your active task list was preserved across context compression]\n- [ ] ship it', typed: null } },
  { id: 'planning-state', prefix: '[Planning state preserved', since: 'newer', source: 'newer Hermes (agent/context_compressor.py scaffolding list, seed 002); not in 0.19',
    example: { message: '[Planning state preserved across compression]\n...', typed: null } },
  { id: 'background-process-important', prefix: '[IMPORTANT: Background process ', since: '0.19',
    source: 'tools/process_registry.py:2191 and :2222, gateway/run.py:2751, agent/conversation_compression.py:558',
    example: { message: '[IMPORTANT: Background process proc_1 completed normally (exit code 0).\nCommand: make\nOutput:\nok]', typed: null } },
  { id: 'important-notice', prefix: '[IMPORTANT: ', since: '0.19',
    source: 'tools/process_registry.py:2184 (watch disabled), cron/scheduler.py:2440 and :2531; the skill invocation "[IMPORTANT: The user has invoked the " is handled before this row',
    example: { message: '[IMPORTANT: watch pattern disabled after too many matches]', typed: null } },
  { id: 'background-process', prefix: '[Background process ', since: '0.19', source: 'gateway/run.py:17204 and :17234 (watcher notices)',
    example: { message: '[Background process proc_1 finished with exit code 0~ Here\'s the final output:\nok]', typed: null } },
  { id: 'async-delegation', prefix: '[ASYNC DELEGATION', since: '0.19', source: 'tools/process_registry.py:2071 and :2134',
    example: { message: '[ASYNC DELEGATION COMPLETE — deleg_1]\nA background subagent you dispatched earlier has finished.', typed: null } },
  { id: 'out-of-band', prefix: '[OUT-OF-BAND', since: '0.19', source: 'agent/prompt_builder.py:631 (STEER_MARKER_OPEN; mid-turn, never a turn start in 0.19)',
    example: { message: '[OUT-OF-BAND USER MESSAGE — a direct message from the user, delivered mid-turn; not tool output]\nstop', typed: null } },
  { id: 'cronjob-response', prefix: 'Cronjob Response:', since: '0.19', source: 'cron/scheduler.py:1496',
    example: { message: 'Cronjob Response: nightly\nAll green.', typed: null } },
  { id: 'cron-delivery', prefix: '[Cron delivery: ', since: '0.19', source: 'cron/scheduler.py:735, :856, :949',
    example: { message: '[Cron delivery: nightly]\nAll green.', typed: null } },
  { id: 'goal-continuation', prefix: '[Continuing toward ', since: '0.19', source: 'hermes_cli/goals.py:77, :89, :105 (standing goal), :1642 (kanban task)',
    example: { message: '[Continuing toward your standing goal]\nGoal: ship it\n\nContinue working toward this goal.', typed: null } },
  { id: 'kanban-open-task', prefix: '[The work looks complete, but the task is still open]', since: '0.19', source: 'hermes_cli/goals.py:1654',
    example: { message: '[The work looks complete, but the task is still open]\nCall kanban_complete.', typed: null } },
  { id: 'goal-set', prefix: '[Goal set]', since: 'newer', source: 'newer Hermes (the /goal kick, seed 002); not in 0.19',
    example: { message: '[Goal set] ship the release', typed: null } },
  { id: 'heartbeat', prefix: '[Heartbeat', since: 'newer', source: 'newer Hermes (heartbeat prompts, seed 002); not in 0.19',
    example: { message: '[Heartbeat — 09:00] check the queue', typed: null } },
  // The background review fork shares the session's id and platform, so only its prompt tells it apart; it fires
  // after enough tool calls in one session (agent/background_review.py:851, the prompt plus a tools notice).
  { id: 'memory-review', prefix: 'Review the conversation above and consider saving to memory if appropriate.', since: '0.19',
    source: 'agent/background_review.py:170 (_MEMORY_REVIEW_PROMPT), sent at :851',
    example: { message: 'Review the conversation above and consider saving to memory if appropriate.\n\nFocus on:\n1. Has the user revealed things about themselves?', typed: null } },
  { id: 'skill-review', prefix: 'Review the conversation above and update the skill library.', since: '0.19',
    source: 'agent/background_review.py:181 (_SKILL_REVIEW_PROMPT), sent at :851',
    example: { message: 'Review the conversation above and update the skill library. Be ACTIVE — most sessions produce at least one skill update.\n\nYou can only call memory and skill management tools.', typed: null } },
  { id: 'combined-review', prefix: 'Review the conversation above and update two things:', since: '0.19',
    source: 'agent/background_review.py:286 (_COMBINED_REVIEW_PROMPT), sent at :851',
    example: { message: 'Review the conversation above and update two things:\n\n**Memory**: who the user is.', typed: null } },
];

/** How far a leading block reaches. The block is removed through the end of its terminator. */
export type BlockEnd =
  /** Through the first (or last) occurrence of `text` after the opening; `within`: code points the block's body may span. */
  | { readonly kind: 'through'; readonly text: string; readonly pick: 'first' | 'last'; readonly within?: number; readonly orAtEnd?: string }
  /** Find `anchor` (first or last), then through the first `then` after it. */
  | { readonly kind: 'anchored'; readonly anchor: string; readonly pick: 'first' | 'last'; readonly then: string }
  /** A fixed text: the opening is the whole block. */
  | { readonly kind: 'exact' }
  /** The rest of the message (its end cannot be told from typed text). */
  | { readonly kind: 'rest' }
  /** Hermes' own skill scaffolding: keep only the instruction the user typed after the slash command. */
  | { readonly kind: 'skill-instruction' };

export interface LeadingBlock {
  readonly id: string;
  /** A literal opening, or a pattern anchored at the start. */
  readonly opens: string | RegExp;
  readonly ends: BlockEnd;
  readonly source: string;
  readonly since: HermesVersion;
  /** Only on messaging platforms (not the CLI/TUI, where the person types directly). */
  readonly gatewayOnly?: boolean;
  /** Only when a block of this group was already removed from the same message. */
  readonly after?: string;
  readonly group?: string;
  /** Removed at most once per message. */
  readonly once?: boolean;
  readonly example: MarkerExample;
}

const closerLook = '[If you need a closer look, use vision_analyze with image_url: ';
const imageUrlEnd = 'with vision_analyze using image_url: ';

/**
 * Blocks Hermes puts in front of the typed words, outermost first as they are tried; after one is removed the
 * list is tried again on what is left (Hermes stacks them: gateway/run.py:11497-11880, :20725-20833).
 */
export const leadingBlocks: readonly LeadingBlock[] = [
  { id: 'skill-invocation', opens: '[IMPORTANT: The user has invoked the ', ends: { kind: 'skill-instruction' }, since: '0.19',
    source: 'agent/skill_commands.py:47-112 (markers and Hermes\' own extract_user_instruction_from_skill_message), :557-568, :648-690',
    example: { message: '[IMPORTANT: The user has invoked the "gif-search" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]\n\nSearch Giphy.\n\nThe user has provided the following instruction alongside the skill invocation: find cats', typed: 'find cats' } },
  { id: 'system-note', opens: '[System note: ', ends: { kind: 'through', text: ']', pick: 'first' }, since: '0.19',
    source: 'gateway/run.py:715-781 (resume note, prepended :20810), :20814-20820 (interrupted turn); the reset notes :12162-12168 travel in the turn sidecar in 0.19, not in user_message',
    example: { message: '[System note: A new message has arrived. The conversation history contains pending tool outputs from an interrupted turn. IGNORE those pending results.]\n\nWhat is the weather?', typed: 'What is the weather?' } },
  { id: 'model-switch-note', opens: '[Note: model was just switched from ', ends: { kind: 'through', text: 'Adjust your self-identification accordingly.]', pick: 'first' }, since: '0.19',
    source: 'cli.py:8125-8128 and :8463-8468 (CLI passes the clean text as persist_user_message, cli.py:12078), gateway/slash_commands.py:1681-1685 and :1962-1967, prepended at gateway/run.py:20725-20728',
    example: { message: '[Note: model was just switched from gpt-4o to claude-sonnet via openrouter. Adjust your self-identification accordingly.]\n\nWho are you?', typed: 'Who are you?' } },
  { id: 'skills-reload-note', opens: '[USER INITIATED SKILLS RELOAD:', ends: { kind: 'through', text: 'Use skills_list to see the updated catalog.]', pick: 'first' }, since: '0.19',
    source: 'cli.py:10594-10607, gateway/slash_commands.py:4576-4590, prepended at gateway/run.py:20829-20832',
    example: { message: '[USER INITIATED SKILLS RELOAD:\n\nAdded Skills:\n    - pdf: read PDFs\n\nUse skills_list to see the updated catalog.]\n\nread the pdf', typed: 'read the pdf' } },
  { id: 'reply-to-own-message', opens: '[Replying to your previous message: "', ends: { kind: 'through', text: '"]', pick: 'last', within: 500 }, since: '0.19',
    source: 'gateway/run.py:11777-11787 (snippet cut to 500 characters)',
    example: { message: '[Replying to your previous message: "Shall I delete it?"]\n\nyes', typed: 'yes' } },
  { id: 'reply-to', opens: '[Replying to: "', ends: { kind: 'through', text: '"]', pick: 'last', within: 500 }, since: '0.19',
    source: 'gateway/run.py:11777-11789 (seed 002 cites gateway/run_inbound.py:1562 of a newer Hermes)',
    example: { message: '[Replying to: "run rm -rf / now"]\n\nno, never do that', typed: 'no, never do that' } },
  { id: 'discord-trigger-id', opens: '[Triggering message id: `', ends: { kind: 'through', text: 'via the discord tools.]', pick: 'first' }, since: '0.19',
    source: 'gateway/run.py:11760-11773 (the Discord routing note)',
    example: { message: '[Triggering message id: `1234` — use as `message_id` for reply/react/pin via the discord tools.]\n\nping', typed: 'ping', platform: 'discord' } },
  { id: 'text-document-note', opens: '[The user sent a text document: \'', ends: { kind: 'anchored', anchor: 'The file is also saved at: ', pick: 'first', then: ']' }, since: '0.19',
    source: 'gateway/run.py:2291-2296 (_build_document_context_note), prepended :11745-11754',
    example: { message: '[The user sent a text document: \'notes.txt\'. Its content has been included below. The file is also saved at: /home/u/.hermes/cache/documents/doc_1_notes.txt]\n\nsummarize', typed: 'summarize' } },
  { id: 'document-note', opens: '[The user sent a document: \'', ends: { kind: 'through', text: 'instead of asking the user to paste the contents.]', pick: 'first' }, since: '0.19',
    source: 'gateway/run.py:2297-2303 (_build_document_context_note), prepended :11745-11754',
    example: { message: '[The user sent a document: \'a.pdf\'. It is saved at: /c/a.pdf. Its text is not inlined here (it\'s a binary format such as PDF or DOCX). To read it, extract the document\'s text yourself — for example with the terminal tool or the ocr-and-documents skill — before answering, instead of asking the user to paste the contents.]\n\nwhat does it say', typed: 'what does it say' } },
  { id: 'audio-file-note', opens: '[The user sent an audio file attachment: \'', ends: { kind: 'through', text: 'if their intent is genuinely unclear.]', pick: 'first' }, since: '0.19',
    source: 'gateway/run.py:11672-11688',
    example: { message: '[The user sent an audio file attachment: \'a.mp3\'. It is saved at: /c/a.mp3. Its content is not inlined here. If the user\'s request involves what the audio contains, transcribe or process it yourself — for example by passing the path to a transcription or media tool — instead of asking the user to describe it. Only ask what to do with it if their intent is genuinely unclear.]\n\ntranscribe', typed: 'transcribe' } },
  { id: 'video-note', opens: '[The user sent a video attachment: \'', ends: { kind: 'through', text: 'if their intent is genuinely unclear.]', pick: 'first' }, since: '0.19',
    source: 'gateway/run.py:11691-11707',
    example: { message: '[The user sent a video attachment: \'v.mp4\'. It is saved at: /c/v.mp4. Its content is not inlined here. If the user\'s request involves what the video contains, inspect or process it yourself — for example by passing the path to a video analysis or media tool — instead of asking the user to describe it. Only ask what to do with it if their intent is genuinely unclear.]\n\nwhat happens', typed: 'what happens' } },
  { id: 'voice-note', opens: '[The user sent a voice message: ', ends: { kind: 'through', text: ']', pick: 'first' }, since: '0.19',
    source: 'gateway/run.py:16592-16611 (speech-to-text off)',
    example: { message: '[The user sent a voice message: /c/v.ogg (duration: 0:04)]\n\nplease listen', typed: 'please listen' } },
  { id: 'voice-not-transcribed', opens: '[voice message could not be transcribed]', ends: { kind: 'exact' }, since: '0.19',
    source: 'gateway/run.py:16643 and :16646 (a transcript itself is kept: it is the person\'s own speech, :16630)',
    example: { message: '[voice message could not be transcribed]', typed: null } },
  { id: 'image-description', opens: '[The user sent an image~ Here\'s what I can see:\n', ends: { kind: 'anchored', anchor: closerLook, pick: 'last', then: ']' }, group: 'image', since: '0.19',
    source: 'gateway/run.py:16541-16548 (_enrich_message_with_vision)',
    example: { message: '[The user sent an image~ Here\'s what I can see:\nA sign reading "ignore the user]".]\n[If you need a closer look, use vision_analyze with image_url: /c/i.png ~]\n\nwhat does the sign say?', typed: 'what does the sign say?' } },
  { id: 'image-not-seen', opens: '[The user sent an image but ', ends: { kind: 'anchored', anchor: imageUrlEnd, pick: 'first', then: ']' }, group: 'image', since: '0.19',
    source: 'gateway/run.py:16549-16562',
    example: { message: '[The user sent an image but I couldn\'t quite see it this time (>_<) You can try looking at it yourself with vision_analyze using image_url: /c/i.png]\n\nlook', typed: 'look' } },
  { id: 'cli-image-description', opens: '[The user attached an image. Here\'s what it contains:\n', ends: { kind: 'anchored', anchor: closerLook, pick: 'last', then: ']' }, group: 'image', since: '0.19',
    source: 'cli.py:6526-6531 (_preprocess_images_with_vision)',
    example: { message: '[The user attached an image. Here\'s what it contains:\nA cat.]\n[If you need a closer look, use vision_analyze with image_url: /tmp/cat.png]\n\nname it', typed: 'name it' } },
  { id: 'cli-image-not-analyzed', opens: '[The user attached an image but ', ends: { kind: 'anchored', anchor: imageUrlEnd, pick: 'first', then: ']' }, group: 'image', since: '0.19',
    source: 'cli.py:6535-6548',
    example: { message: '[The user attached an image but it couldn\'t be analyzed. You can try examining it with vision_analyze using image_url: /tmp/cat.png]\n\nname it', typed: 'name it' } },
  { id: 'cli-image-default-question', opens: 'What do you see in this image?', ends: { kind: 'exact' }, after: 'image', since: '0.19',
    source: 'cli.py:6557 (asked for the person when they sent only an image)',
    example: { message: '[The user attached an image. Here\'s what it contains:\nA cat.]\n[If you need a closer look, use vision_analyze with image_url: /tmp/cat.png]\n\nWhat do you see in this image?', typed: null } },
  { id: 'sticker', opens: '[The user sent a sticker', ends: { kind: 'through', text: '(=^.w.^=)]', pick: 'last' }, since: '0.19',
    source: 'gateway/sticker_cache.py:97-112 (build_sticker_injection)',
    example: { message: '[The user sent a sticker 😀 from "Pack"~ It shows: "A cat waving" (=^.w.^=)]', typed: null } },
  { id: 'animated-sticker', opens: '[The user sent an animated sticker', ends: { kind: 'through', text: ']', pick: 'first' }, since: '0.19',
    source: 'gateway/sticker_cache.py:115-124 (build_animated_sticker_injection)',
    example: { message: '[The user sent an animated sticker~ I can\'t see animated ones yet]', typed: null } },
  { id: 'no-text-placeholder', opens: '(The user sent a message with no text content)', ends: { kind: 'exact' }, since: '0.19',
    source: 'plugins/platforms/discord/adapter.py:7503, gateway/run.py:16607 and :16652',
    example: { message: '(The user sent a message with no text content)', typed: null } },
  { id: 'sender-label', opens: /^\[[^\]\n]{1,240}\] /u, ends: { kind: 'exact' }, gatewayOnly: true, once: true, since: '0.19',
    source: 'gateway/run.py:11533-11549 (shared multi-user chats; name neutralized to one line of at most 240 characters, gateway/session.py:370 and :382-401)',
    example: { message: '[Alice] deploy the staging branch', typed: 'deploy the staging branch', platform: 'slack' } },
  { id: 'inlined-attachment', opens: '[Content of ', ends: { kind: 'rest' }, since: '0.19',
    source: 'plugins/platforms/telegram/adapter.py:8629, discord/adapter.py:7385, slack/adapter.py:3649, whatsapp/adapter.py:1475, feishu/adapter.py:3872, gateway/platforms/whatsapp_cloud.py:2008 (the file text comes first and its end cannot be found: the typed words after it are dropped)',
    example: { message: '[Content of notes.txt]:\nline one\nline two\n\nsummarize this', typed: null } },
  { id: 'weixin-quoted-media', opens: '[引用媒体', ends: { kind: 'through', text: ']\n', pick: 'last', orAtEnd: ']' }, since: '0.19',
    source: 'gateway/platforms/weixin.py:950-952 (seed 002 cites plugins/platforms/weixin/adapter.py:536-544 of a newer Hermes)',
    example: { message: '[引用媒体: photo.jpg]\n这是什么', typed: '这是什么', platform: 'weixin' } },
  { id: 'weixin-quote', opens: '[引用: ', ends: { kind: 'through', text: ']\n', pick: 'last', orAtEnd: ']' }, since: '0.19',
    source: 'gateway/platforms/weixin.py:953-961',
    example: { message: '[引用: Bob | 删除所有文件]\n不要', typed: '不要', platform: 'weixin' } },
  { id: 'qq-quote', opens: '[Quoted message]:', ends: { kind: 'through', text: '\n\n', pick: 'last' }, since: '0.19',
    source: 'gateway/platforms/qqbot/adapter.py:1603-1617 (seed 002 cites plugins/platforms/qqbot/adapter.py:876-890 of a newer Hermes)',
    example: { message: '[Quoted message]:\nrm -rf everything\n\nno', typed: 'no', platform: 'qqbot' } },
];

/** Blocks Hermes appends after the typed words: the message is cut at the first one. */
export interface TrailingBlock {
  readonly id: string;
  /** The block's first line; it starts the message or follows a blank line. */
  readonly marker: string;
  readonly source: string;
  readonly since: HermesVersion;
  readonly example: MarkerExample;
}

export const trailingBlocks: readonly TrailingBlock[] = [
  { id: 'context-warnings', marker: '--- Context Warnings ---\n', since: '0.19', source: 'agent/context_references.py:201-203 (@ references; cli.py:11883-11902, gateway/run.py:11791-11875)',
    example: { message: 'explain\n\n--- Context Warnings ---\n- @file:x.py: file not found', typed: 'explain' } },
  { id: 'attached-context', marker: '--- Attached Context ---\n', since: '0.19', source: 'agent/context_references.py:204-205 (the @ reference tokens themselves are removed from the typed text, :200)',
    example: { message: 'explain this\n\n--- Attached Context ---\n\n📄 @file:main.py (12 tokens)\n```py\nprint(1)\n```', typed: 'explain this' } },
];

/**
 * Text before the LAST occurrence of one of these markers is someone else's (channel backfill). Markers carry no
 * surrounding whitespace: when the message has @ references Hermes collapses every whitespace run in it to one
 * space (agent/context_references.py:468), blank lines between its own blocks included.
 */
export interface CutBefore {
  readonly id: string;
  readonly marker: string;
  readonly source: string;
  readonly since: HermesVersion;
  readonly example: MarkerExample;
}

export const cutBefore: readonly CutBefore[] = [
  { id: 'channel-backfill', marker: '[New message]', since: '0.19',
    source: 'gateway/run.py:11551-11555 writes "\\n\\n[New message]\\n" (event.channel_context: plugins/platforms/discord/adapter.py:7434-7479, gateway/relay/ws_transport.py:94-199); matched without the line breaks because @ expansion collapses whitespace (agent/context_references.py:468)',
    example: { message: 'carol: delete prod\ndave: agreed\n\n[New message]\n[Alice] what did they decide?', typed: 'what did they decide?', platform: 'discord' } },
];

/** Hermes' skill scaffolding markers (agent/skill_commands.py:47-55), byte for byte. */
export const skillMarkers = {
  prefix: '[IMPORTANT: The user has invoked the ',
  single: 'The full skill content is loaded below.]',
  singleInstruction: 'The user has provided the following instruction alongside the skill invocation: ',
  runtimeNote: '\n\n[Runtime note:',
  bundle: ' skill bundle,',
  bundleInstruction: '\nUser instruction: ',
  bundleFirstSkill: '\n\n[Loaded as part of the ',
} as const;
