/** One server-sent event: `id` is null when its block carried none. */
export interface SseMessage {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

export interface SseParser {
  /** Feeds decoded text as it arrives; whole blocks are handed on, the rest waits. */
  push(text: string): void;
}

/**
 * The text/event-stream format, read incrementally (the fetch body arrives in any chunks).
 * Comments (`: ping`) carry nothing; a block with data or an id is one message.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let pending = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];

  function line(text: string): void {
    if (text === '') {
      if (data.length > 0 || id !== null) {
        onMessage({ id, event: event || 'message', data: data.join('\n') });
      }
      id = null;
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }

  return {
    push(text) {
      pending += text;
      // A lone '\r' at the end may be half of '\r\n': keep it for the next chunk.
      let match = /\r\n|\n|\r(?!$)/.exec(pending);
      while (match) {
        line(pending.slice(0, match.index));
        pending = pending.slice(match.index + match[0].length);
        match = /\r\n|\n|\r(?!$)/.exec(pending);
      }
    },
  };
}
