// Owns decoding a server-sent event stream (the WHATWG "event stream"
// format both providers stream in): bytes arrive in arbitrary pieces and
// leave as whole lines, then as whole events. Linear in its input: each
// piece is scanned once, however long the line it belongs to.

export interface ServerSentEvent {
  /** The `event:` field; absent when the server named none. */
  event?: string;
  /** The `data:` lines, joined by newlines. */
  data: string;
}

/** One line end: \r\n counts once. */
const LINE_END = /\r\n|\r|\n/g;

/**
 * Splits text into lines ending in \n, \r\n or \r. A line ended by \r at the
 * end of a piece is given at once (as openai-node's decoder does); a \n that
 * opens the next piece completes that \r\n and is not a second line end.
 */
export class LineDecoder {
  /** Text of the line in progress, in the pieces it arrived in (joined once, when it ends). */
  private pending: string[] = [];
  /** The last piece ended with \r: a \n opening the next one belongs to it. */
  private skipLf = false;
  private readonly utf8 = new TextDecoder("utf-8");
  private started = false;

  /** The lines completed by `piece` (bytes are UTF-8; a character split between pieces is joined). */
  decode(piece: string | Uint8Array): string[] {
    let text = typeof piece === "string" ? piece : this.utf8.decode(piece, { stream: true });
    if (text.length === 0) return [];
    // The stream's first character may be a byte order mark, which is not part of any line.
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.skipLf && text.charCodeAt(0) === 10) start = 1;
    this.skipLf = false;
    const lines: string[] = [];
    LINE_END.lastIndex = start;
    for (let m = LINE_END.exec(text); m; m = LINE_END.exec(text)) {
      lines.push(this.take(text.slice(start, m.index)));
      start = m.index + m[0].length;
      if (m[0] === "\r" && start === text.length) this.skipLf = true;
      LINE_END.lastIndex = start;
    }
    if (start < text.length) this.pending.push(text.slice(start));
    return lines;
  }

  /** The stream ended: a line in progress is complete. */
  flush(): string[] {
    const rest = this.utf8.decode();
    if (rest) this.pending.push(rest);
    this.skipLf = false;
    return this.pending.length ? [this.take("")] : [];
  }

  private take(last: string): string {
    if (this.pending.length === 0) return last;
    this.pending.push(last);
    const line = this.pending.join("");
    this.pending = [];
    return line;
  }
}

/**
 * Gathers lines into events: a blank line dispatches the event gathered so
 * far (as the SDKs do, an event with a name but no data is dispatched with
 * empty data); lines starting with ':' are comments (keep-alives). `id:` and
 * `retry:` are read past: the providers use neither, and jp retries by
 * request, not by stream position.
 */
export class SseDecoder {
  private readonly lines = new LineDecoder();
  private event: string | undefined;
  private data: string[] = [];

  /** Feed bytes or text as it arrives; returns the events it completed. */
  push(piece: string | Uint8Array): ServerSentEvent[] {
    return this.gather(this.lines.decode(piece));
  }

  /** The stream ended: a last event without its blank line is not dispatched (as the format says). */
  end(): void {
    this.gather(this.lines.flush());
    this.event = undefined;
    this.data = [];
  }

  private gather(lines: readonly string[]): ServerSentEvent[] {
    const out: ServerSentEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === "") {
      if (this.data.length === 0 && this.event === undefined) return undefined;
      const event: ServerSentEvent = { data: this.data.join("\n") };
      if (this.event !== undefined) event.event = this.event;
      this.event = undefined;
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    return undefined;
  }
}
