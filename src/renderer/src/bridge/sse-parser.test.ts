import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse-parser';

function parse(chunks: readonly string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((message) => out.push(message));
  for (const chunk of chunks) parser.push(chunk);
  return out;
}

describe('SSE parser', () => {
  it('reads ids, event names and data, and skips comments', () => {
    expect(
      parse([
        ': connected\n\nevent: ready\nid: b.3\ndata: {"resync":false}\n\nid: b.4\ndata: x\n\n: ping\n\n',
      ]),
    ).toEqual([
      { id: 'b.3', event: 'ready', data: '{"resync":false}' },
      { id: 'b.4', event: 'message', data: 'x' },
    ]);
  });

  it('puts frames back together from any chunks, whatever the line endings', () => {
    const text = 'id: b.1\r\ndata: one\r\n\r\nid: b.2\rdata: two\r\rdata: a\ndata: b\n\n';
    const whole = parse([text]);
    expect(whole).toEqual([
      { id: 'b.1', event: 'message', data: 'one' },
      { id: 'b.2', event: 'message', data: 'two' },
      { id: null, event: 'message', data: 'a\nb' },
    ]);
    // Every split point, one character at a time included.
    expect(parse(text.split(''))).toEqual(whole);
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(parse([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('holds an unfinished frame until its blank line comes', () => {
    const out: SseMessage[] = [];
    const parser = createSseParser((message) => out.push(message));
    parser.push('id: b.9\ndata: {"a":');
    expect(out).toEqual([]);
    parser.push('1}\n\n');
    expect(out).toEqual([{ id: 'b.9', event: 'message', data: '{"a":1}' }]);
  });
});
