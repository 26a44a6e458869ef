import { describe, expect, it } from 'vitest';
import { parseSse, SseParser } from '../../../src/engine/llm/sse.js';
import { NdjsonParser, parseNdjson } from '../../../src/engine/llm/ndjson.js';

describe('parseSse()', () => {
  it('joins multi-line data blocks with newlines and names events', () => {
    expect(parseSse('event: response.output_text.delta\ndata: {"a":\ndata: 1}\n\ndata: second\n\n')).toEqual([
      { event: 'response.output_text.delta', data: '{"a":\n1}', id: null },
      { event: null, data: 'second', id: null },
    ]);
  });

  it('ignores comments, keeps the last id (as the spec says), strips one leading space only, and accepts CRLF and CR', () => {
    expect(parseSse(': keep-alive\r\nid: 7\r\ndata:  two spaces\r\n\r\ndata:x\r\rdata: y\n\n')).toEqual([
      { event: null, data: ' two spaces', id: '7' },
      { event: null, data: 'x', id: '7' },
      { event: null, data: 'y', id: '7' },
    ]);
  });

  it('dispatches a last block that lacks its blank line, and nothing for blocks without data', () => {
    expect(parseSse('event: ping\n\ndata: [DONE]')).toEqual([{ event: null, data: '[DONE]', id: null }]);
  });

  it('gives the same events however the body is split into chunks', () => {
    const body = 'event: a\r\ndata: {"x":"é"}\r\n\r\ndata: line1\ndata: line2\n\n: c\ndata: z\n\n';
    const whole = parseSse(body);
    for (let cut = 0; cut <= body.length; cut += 1) {
      const parser = new SseParser();
      const events = [...parser.feed(body.slice(0, cut)), ...parser.feed(body.slice(cut)), ...parser.end()];
      expect(events).toEqual(whole);
    }
  });
});

describe('NDJSON', () => {
  it('parses one value per line across chunks and skips blank lines', () => {
    const parser = new NdjsonParser();
    expect(parser.feed('{"a":1}\n{"b"')).toEqual({ ok: true, value: [{ a: 1 }] });
    expect(parser.feed(':2}\n\n')).toEqual({ ok: true, value: [{ b: 2 }] });
    expect(parser.feed('{"c":3}')).toEqual({ ok: true, value: [] });
    expect(parser.end()).toEqual({ ok: true, value: [{ c: 3 }] });
  });

  it('refuses a line that is not JSON', () => {
    expect(parseNdjson('{"a":1}\nnope\n')).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE', message: 'The server sent a line that is not JSON: nope' } });
  });
});
