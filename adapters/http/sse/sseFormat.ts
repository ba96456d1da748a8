/** Server-Sent Events framing. Data is one line of JSON (JSON never holds a raw newline), so one `data:` line each. */
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');

export const sseEvent = (id: number | null, event: string, data: unknown): string =>
  `${id === null ? '' : `id: ${id}\n`}event: ${oneLine(event)}\ndata: ${JSON.stringify(data)}\n\n`;

export const sseComment = (text: string): string => `: ${oneLine(text)}\n\n`;

export const sseRetry = (ms: number): string => `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
