// Owns decoding a server-sent event stream (the WHATWG "event stream"
// format both providers stream in): text arrives in arbitrary pieces and
// leaves as whole events.

export interface ServerSentEvent {
  /** The `event:` field; absent when the server named none. */
  event?: string;
  /** The `data:` lines, joined by newlines. */
  data: string;
}

/**
 * Feed it text as it arrives (`push`), then `end()`. Lines end with \n, \r\n
 * or \r; a blank line dispatches the event gathered so far; lines starting
 * with ':' are comments (keep-alives). `id:` and `retry:` are read past: the
 * providers use neither, and jp retries by request, not by stream position.
 */
export class SseDecoder {
  private buffer = "";
  private afterCr = false;
  private event: string | undefined;
  private data: string[] = [];

  push(text: string): ServerSentEvent[] {
    // A piece that ended on \r may have split a \r\n: its \n is not a second line end.
    if (this.afterCr && text.startsWith("\n")) text = text.slice(1);
    this.afterCr = false;
    this.buffer += text;
    const out: ServerSentEvent[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf("\n", start);
      const cr = this.buffer.indexOf("\r", start);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      const event = this.line(this.buffer.slice(start, end));
      if (event) out.push(event);
      start = end + 1;
      if (end === cr) {
        if (start === this.buffer.length) this.afterCr = true;
        else if (this.buffer[start] === "\n") start++;
      }
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: a last event without its blank line is not dispatched (as the format says). */
  end(): void {
    this.buffer = "";
    this.afterCr = false;
    this.event = undefined;
    this.data = [];
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = undefined;
        return undefined;
      }
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
