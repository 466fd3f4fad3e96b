// Owns counted nouns in what jp says: "1 tool", "2 tools", never "tool(s)".
import { grouped } from "../numbers.js";

/** `count` (with thousands separators, as every count jp prints) and the noun, plural unless the count is one. */
export function counted(count: number, noun: string): string {
  return `${grouped(count)} ${noun}${count === 1 ? "" : "s"}`;
}
