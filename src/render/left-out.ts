// Owns how tools a conversation names but jp cannot run (`name (why)`) are
// told: grouped by why, since a JP conversation leaves dozens out for one reason.

/** Left-out tools grouped by why, in the order each reason first appears. */
export function leftOutByReason(tools: readonly string[]): [why: string, names: string[]][] {
  const groups = new Map<string, string[]>();
  for (const tool of tools) {
    const open = tool.indexOf(" (");
    const [name, why] =
      open < 0 ? [tool, "no reason recorded"] : [tool.slice(0, open), tool.slice(open + 2, -1)];
    groups.set(why, [...(groups.get(why) ?? []), name]);
  }
  return [...groups];
}

/** One line's worth: each reason with its first few tools named, `and N more` for the rest. */
export function leftOutSummary(tools: readonly string[], named = 3): string {
  return leftOutByReason(tools)
    .map(([why, names]) => {
      const shown = names.slice(0, named).join(", ");
      const more = names.length > named ? ` and ${names.length - named} more` : "";
      return `${shown}${more} (${why})`;
    })
    .join("; ");
}
