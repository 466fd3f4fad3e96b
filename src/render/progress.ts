// Owns the progress line of long work on a terminal: shown only once the work
// has taken a second, redrawn at most ten times a second, cleared when done.
// Off the terminal it writes nothing, so pipes and logs stay clean.

export type ProgressCallback = (done: number, total: number) => void;

export function progressLine(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  describe: (done: number, total: number) => string,
  now: () => number = Date.now,
): ProgressCallback {
  let started: number | undefined;
  let drawnAt = 0;
  let drawn = false;
  return (done, total) => {
    if (!stream.isTTY) return;
    const at = now();
    started ??= at;
    if (done >= total) {
      if (drawn) stream.write("\r\x1b[K");
      started = undefined;
      drawn = false;
      return;
    }
    if (at - started < 1000 || at - drawnAt < 100) return;
    drawnAt = at;
    drawn = true;
    stream.write(`\r\x1b[K${describe(done, total)}`);
  };
}

/** `12.5 MB`: sizes in a progress line. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
