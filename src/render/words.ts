// Owns counted nouns in what jp says: "1 tool", "2 tools", never "tool(s)".

/** `count` and the noun, plural unless the count is one. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
