/**
 * Server-Sent Events framing. Data is one line of JSON (JSON never holds a raw newline), so one `data:` line each.
 * People read the stream raw too (`curl`, `tollgate tail --json`), so the JSON carries direction and invisible
 * characters as \uXXXX escapes: JSON readers get the exact values, a terminal shows the escape.
 */
import { visibleJson, visibleText } from '../../../domain/encoding/visibleText.mjs';

const oneLine = (text: string): string => visibleText(text.replace(/[\r\n]+/g, ' '));

export const sseEvent = (id: number | null, event: string, data: unknown): string =>
  `${id === null ? '' : `id: ${id}\n`}event: ${oneLine(event)}\ndata: ${visibleJson(data)}\n\n`;

export const sseComment = (text: string): string => `: ${oneLine(text)}\n\n`;

export const sseRetry = (ms: number): string => `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
