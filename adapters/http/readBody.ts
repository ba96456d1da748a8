/**
 * Reads a request body with two bounds: its size (stop storing at the limit: 413) and the time the client may take
 * to send it (408). A client that goes away mid-body is a problem too, so the caller can record it.
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './httpProblem.ts';

export interface BodyLimits {
  readonly maxBytes: number;
  /** Time allowed from the start of reading to the last byte. */
  readonly timeoutMs: number;
}

export const readBody = (req: IncomingMessage, limits: BodyLimits): Promise<string> => {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limits.maxBytes)
    return Promise.reject(tooLarge(limits.maxBytes, `Content-Length is ${declared}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: HttpProblem | null, text?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('close', onClose).off('error', onError);
      if (error) reject(error); else resolve(text ?? '');
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limits.maxBytes) { chunks.length = 0; finish(tooLarge(limits.maxBytes, `at least ${size} bytes arrived`)); return; }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(null, Buffer.concat(chunks, size).toString('utf8'));
    const onAborted = (): void => finish(new HttpProblem(400, 'client-closed', `The client closed the connection after ${size} bytes, before the body was complete.`, 'body'));
    const onClose = (): void => { if (!req.complete) onAborted(); };
    const onError = (error: Error): void => finish(new HttpProblem(400, 'client-closed', `The request body could not be read: ${error.message}.`, 'body'));
    const timer = setTimeout(() => finish(new HttpProblem(408, 'body-timeout',
      `The request body did not arrive within ${limits.timeoutMs} ms (${size} bytes so far).`, 'body')), limits.timeoutMs);
    req.on('data', onData).on('end', onEnd).on('aborted', onAborted).on('close', onClose).on('error', onError);
  });
};

const tooLarge = (maxBytes: number, seen: string): HttpProblem =>
  new HttpProblem(413, 'body-too-large', `The request body is larger than the limit of ${maxBytes} bytes (${seen}).`, 'body');
