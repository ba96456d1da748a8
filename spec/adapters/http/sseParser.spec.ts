import { expect } from 'chai';
import fc from 'fast-check';
import { sseComment, sseEvent, sseRetry } from '../../../adapters/http/sse/sseFormat.ts';
import { SseParser, type SseMessage } from '../../../adapters/http/sse/sseParser.ts';

const parseAll = (chunks: readonly string[]) => {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onMessage: (m) => messages.push(m), onComment: (c) => comments.push(c), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { messages, comments, retries, lastEventId: parser.lastEventId };
};

describe('SSE framing and parsing', () => {
  it('round-trips what the daemon writes, however the bytes are split', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ id: fc.nat(), type: fc.constantFrom('ToolCallDecided', 'caught-up'), data: fc.jsonValue() }), { maxLength: 8 }),
      fc.array(fc.nat({ max: 50 }), { maxLength: 20 }),
      (events, cuts) => {
        const text = sseRetry(2000) + events.map((e) => sseEvent(e.id, e.type, e.data) + sseComment('heartbeat')).join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, text.length].slice(1).map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
        const parsed = parseAll(chunks.length ? chunks : [text]);
        expect(parsed.messages.map((m) => [Number(m.id), m.event, JSON.parse(m.data)])).to.deep.equal(events.map((e) => [e.id, e.type, JSON.parse(JSON.stringify(e.data))]));
        expect(parsed.retries).to.deep.equal([2000]);
        expect(parsed.comments).to.have.length(events.length);
      },
    ));
  });

  it('accepts CRLF and CR line ends, split between chunks', () => {
    const parsed = parseAll(['id: 3\r', '\nevent: x\rdata: 1\r\n', '\r\n']);
    expect(parsed.messages).to.deep.equal([{ id: '3', event: 'x', data: '1' }]);
    expect(parsed.lastEventId).to.equal('3');
  });

  it('keeps the last id across messages without one, as EventSource does for Last-Event-ID', () => {
    const parsed = parseAll(['id: 7\ndata: a\n\ndata: b\n\n']);
    expect(parsed.messages.map((m) => m.id)).to.deep.equal(['7', null]);
    expect(parsed.lastEventId).to.equal('7');
  });

  it('writes event names and comments on one line, whatever they contain', () => {
    expect(sseEvent(1, 'a\nb', { x: 'line\nbreak' })).to.equal('id: 1\nevent: a b\ndata: {"x":"line\\nbreak"}\n\n');
    expect(sseComment('a\r\nb')).to.equal(': a b\n\n');
  });
});
