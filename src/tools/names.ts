// Owns which tool names a request may carry: the names every provider jp
// speaks accepts. Anthropic and OpenAI take letters, digits, `_` and `-`, up
// to 64 characters; Gemini also wants the first to be a letter or `_`.

const ACCEPTED = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const MAX = 64;

/** Why no provider would take `name` as a tool's name; undefined when every one does. */
export function toolNameProblem(name: string): string | undefined {
  if (ACCEPTED.test(name)) return undefined;
  if (name === "") return "the name is empty";
  if (name.length > MAX)
    return `the name is ${name.length} characters long, and providers take at most ${MAX}`;
  return "providers take only letters, digits, _ and - in a tool's name, starting with a letter or _";
}

/** The tools whose names every provider takes; each other one is handed to `leftOut` with why. */
export function withAcceptedNames<T extends { name: string }>(
  tools: readonly T[],
  leftOut: (name: string, problem: string) => void,
): T[] {
  return tools.filter((tool) => {
    const problem = toolNameProblem(tool.name);
    if (problem) leftOut(tool.name, problem);
    return problem === undefined;
  });
}
