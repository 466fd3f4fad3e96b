// Owns deciding whether a tool call runs: a pure decision from the run mode,
// and the `Run tool NAME? [y/n/e/p/?]` conversation when it must ask.
import type { Prompter } from "./prompter.js";
import type { RunMode, Tool, ToolContext } from "./types.js";

export type Decision = "run" | "skip" | "ask" | "edit" | "no_terminal";

/** Only `ask` reaches the prompter; without a terminal nothing waits for an answer. */
export function decideApproval(mode: RunMode, interactive: boolean): Decision {
  if (mode === "unattended") return "run";
  if (mode === "skip") return "skip";
  if (!interactive) return "no_terminal";
  return mode;
}

export type Approval = { run: true; args: Record<string, unknown> } | { run: false; reason: string };

const HELP = [
  "  y  run the tool with these arguments",
  "  n  do not run it; the model is told you declined",
  "  e  edit the arguments as JSON in $EDITOR, then decide",
  "  p  print the arguments in full",
  "  ?  this help",
].join("\n");

async function editArguments(
  prompter: Prompter,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let text = JSON.stringify(args, null, 2);
  let problem: string | undefined;
  for (;;) {
    const header = problem
      ? `# ${problem}\n# Fix the JSON below; lines starting with # are ignored.\n`
      : "# Edit the arguments; lines starting with # are ignored.\n";
    const edited = await prompter.editText(header + text + "\n", ".json");
    const body = edited
      .split("\n")
      .filter((l) => !l.startsWith("#"))
      .join("\n");
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
      problem = "the arguments must be a JSON object";
    } catch (error) {
      problem = `invalid JSON: ${(error as Error).message}`;
    }
    text = body.trim();
  }
}

export async function approveCall(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  prompter: Prompter,
): Promise<Approval> {
  const decision = decideApproval(tool.run, prompter.interactive);
  if (decision === "run") return { run: true, args };
  if (decision === "skip")
    return { run: false, reason: `the user configured ${tool.name} not to run (run = "skip")` };
  if (decision === "no_terminal") {
    prompter.say(
      `jp: ${tool.name} needs approval, but there is no terminal to ask on; it was not run. ` +
        `To allow it without asking, set conversation.tools.${tool.name}.run = "unattended".`,
    );
    return { run: false, reason: `${tool.name} needs the user's approval and no one was there to give it` };
  }
  let current = args;
  if (decision === "edit") current = await editArguments(prompter, current);
  const show = async () =>
    tool.renderArguments ? await tool.renderArguments(current, ctx) : JSON.stringify(current, null, 2);
  prompter.say(`${tool.name} ${await show()}`);
  for (;;) {
    const answer = await prompter.choose(`Run tool ${tool.name}? [y/n/e/p/?] `, ["y", "n", "e", "p", "?"]);
    if (answer === "y") return { run: true, args: current };
    if (answer === "n") return { run: false, reason: "the user declined to run this tool call" };
    if (answer === "e") {
      current = await editArguments(prompter, current);
      prompter.say(`${tool.name} ${await show()}`);
    } else if (answer === "p")
      prompter.say(
        [JSON.stringify(current, null, 2), ...(tool.definition ? [tool.definition] : [])].join("\n"),
      );
    else prompter.say(HELP);
  }
}
