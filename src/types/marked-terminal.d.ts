// The part of marked-terminal 7 jp uses, as its source defines it: markedTerminal
// returns a marked extension (a renderer of functions). The published @types
// package describes the older class-based API.
declare module "marked-terminal" {
  import type { MarkedExtension } from "marked";

  export interface TerminalRendererOptions {
    /** Join a paragraph's lines into one and wrap it to `width` (jp keeps lines as they came). */
    reflowText?: boolean;
    width?: number;
    /** Spaces a tab and a list level take. */
    tab?: number;
    /** Whether headings keep their `#` marks. */
    showSectionPrefix?: boolean;
  }

  export function markedTerminal(options?: TerminalRendererOptions): MarkedExtension;
}
