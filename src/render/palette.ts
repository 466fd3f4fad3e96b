// Owns the styles jp draws with: dim, bold, italic and six colors, as the SGR
// sequences of Node's util.styleText, or none at all. Whether to style is
// decided once, by cli/context.ts (colorEnabled), for the whole command.
// chalk is left to the markdown renderer, which loads only on a terminal:
// loaded with every command, it cost each some 7 ms of start-up.
import { styleText } from "node:util";

type Style = "dim" | "bold" | "italic" | "red" | "green" | "yellow" | "blue" | "magenta" | "cyan";

export type Palette = Readonly<Record<Style, (text: string) => string>> & {
  /** 1 when styles are drawn, 0 when each style gives its text back as it is. */
  readonly level: 0 | 1;
};

export function createPalette(enabled: boolean): Palette {
  const style = (name: Style) =>
    enabled
      ? // jp decides when to style: Node is not to look at process.stdout again (validateStream).
        (text: string) => styleText(name, text, { validateStream: false })
      : (text: string) => text;
  return {
    level: enabled ? 1 : 0,
    dim: style("dim"),
    bold: style("bold"),
    italic: style("italic"),
    red: style("red"),
    green: style("green"),
    yellow: style("yellow"),
    blue: style("blue"),
    magenta: style("magenta"),
    cyan: style("cyan"),
  };
}

/** No style at all, whatever the terminal: for text that goes into files and prompts. */
export const PLAIN: Palette = createPalette(false);
