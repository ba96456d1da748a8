/** An incremental Server-Sent Events parser (the WHATWG algorithm, minus the browser): bytes in, messages out. */
export interface SseMessage {
  /** The `id:` of this message, or null when it had none. */
  readonly id: string | null;
  /** The `event:` name; `message` when absent. */
  readonly event: string;
  readonly data: string;
}

export interface SseHandlers {
  readonly onMessage: (message: SseMessage) => void;
  readonly onComment?: (text: string) => void;
  readonly onRetry?: (ms: number) => void;
}

export class SseParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];
  private hasData = false;
  /** The last id seen, as a reconnecting client sends it in Last-Event-ID. */
  lastEventId: string | null = null;

  constructor(private readonly handlers: SseHandlers) {}

  push(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (match === null) return;
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') { this.dispatch(); return; }
    if (line.startsWith(':')) { this.handlers.onComment?.(line.slice(1).trimStart()); return; }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') { this.data.push(value); this.hasData = true; }
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.handlers.onRetry?.(Number(value));
  }

  private dispatch(): void {
    if (this.id !== null) this.lastEventId = this.id;
    if (this.hasData) this.handlers.onMessage({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
    this.id = null;
    this.event = '';
    this.data = [];
    this.hasData = false;
  }
}
