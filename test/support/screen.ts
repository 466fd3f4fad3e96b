// What a terminal shows after a program's output: the bytes a pseudo-terminal
// gave, played into a headless xterm.js at the sizes the terminal had, each
// resize where it happened. Rows are read back as text (scrollback included),
// so a test checks the screen a person sees, not the escape sequences.
import xterm from "@xterm/headless";

export interface ScreenPart {
  /** Bytes written while the terminal had this size. */
  data: string;
  columns: number;
  rows: number;
}

/** Every row of the terminal after `parts`, top of the scrollback first, trailing blanks trimmed. */
export async function screenRows(parts: readonly ScreenPart[]): Promise<string[]> {
  const [first] = parts;
  if (!first) return [];
  const terminal = new xterm.Terminal({
    cols: first.columns,
    rows: first.rows,
    allowProposedApi: true,
    scrollback: 10_000,
  });
  for (const part of parts) {
    if (part.columns !== terminal.cols || part.rows !== terminal.rows)
      terminal.resize(part.columns, part.rows);
    // The pty turns \n into \r\n; bytes are played as the terminal received them.
    await new Promise<void>((resolve) => {
      terminal.write(part.data, resolve);
    });
  }
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let i = 0; i < buffer.length; i++) rows.push(buffer.getLine(i)?.translateToString(true) ?? "");
  while (rows.at(-1) === "") rows.pop();
  terminal.dispose();
  return rows;
}
