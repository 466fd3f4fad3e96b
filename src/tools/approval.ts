// Owns deciding whether a tool call runs: a pure decision from the run mode,
// and the `Run tool NAME? [y/n/e/p/?]` conversation when it must ask.
import { messageOf } from "../errors.js";
import { isJsonObject } from "../events/index.js";
import type { Prompter } from "./prompter.js";
import type { Approval, RunMode, Tool, ToolContext } from "./types.js";

export type Decision = "run" | "skip" | "ask" | "edit" | "no_terminal";

/** Only `ask` reaches the prompter; without a terminal nothing waits for an answer. */
export function decideApproval(mode: RunMode, interactive: boolean): Decision {
  if (mode === "unattended") return "run";
  if (mode === "skip") return "skip";
  if (!interactive) return "no_terminal";
  return mode;
}

const KEYS = ["y", "Y", "n", "N", "p", "r", "e", "?"] as const;

const HELP = [
  "  y  run the tool with these arguments",
  "  Y  run it, and every later call of this tool in this turn, without asking",
  "  n  do not run it; the assistant is told you declined",
  "  N  decline it, and every later call of this tool in this turn",
  "  r  decline with a reason you type; the assistant receives it",
  "  e  edit the arguments as JSON in $EDITOR, then decide",
  "  p  print the arguments in full, and what the tool runs",
  "  ?  this help",
].join("\n");

const DECLINED = "the user declined to run this tool call";

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
    if (edited === undefined) {
      prompter.say("edit cancelled; the arguments are as they were");
      return args;
    }
    const body = edited
      .split("\n")
      .filter((l) => !l.startsWith("#"))
      .join("\n");
    try {
      const parsed: unknown = JSON.parse(body);
      if (isJsonObject(parsed)) return parsed;
      problem = "the arguments must be a JSON object";
    } catch (error) {
      problem = `invalid JSON: ${messageOf(error)}`;
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
        (tool.warning
          ? "It cannot run unattended as configured (see the warning above)."
          : `To allow it without asking, set conversation.tools.${tool.name}.run = "unattended".`),
    );
    return { run: false, reason: `${tool.name} needs the user's approval and no one was there to give it` };
  }
  const declined = tool.declined ?? DECLINED;
  const remembered = ctx.remembered?.get(tool.name);
  if (remembered === "run") return { run: true, args };
  if (remembered === "decline") return { run: false, reason: declined };
  let current = args;
  const show = async () =>
    tool.renderArguments ? await tool.renderArguments(current, ctx) : JSON.stringify(current, null, 2);
  if (decision === "edit") {
    current = await editArguments(prompter, current);
    prompter.say(`${tool.name} ${await show()}`);
  } else if (tool.renderArguments) {
    // The call line showed the raw arguments; this tool has a better picture of them.
    prompter.say(await show());
  }
  for (;;) {
    const answer = await prompter.choose(
      `Run tool ${tool.name}${tool.about ? ` (${tool.about})` : ""}? [${KEYS.join(",")}] `,
      KEYS,
      {
        help: HELP,
        onEnd: "n",
      },
    );
    switch (answer) {
      case "Y":
        ctx.remembered?.set(tool.name, "run");
        return { run: true, args: current };
      case "y":
        return { run: true, args: current };
      case "N":
        ctx.remembered?.set(tool.name, "decline");
        return { run: false, reason: declined };
      case "n":
        return { run: false, reason: declined };
      case "r": {
        // A reason given is the user's own words, as JP sends it instead of the canned response.
        const reason = await prompter.ask("Reason (sent to the assistant): ");
        return { run: false, reason: reason ? `${DECLINED}: ${reason}` : declined };
      }
      case "e":
        current = await editArguments(prompter, current);
        prompter.say(`${tool.name} ${await show()}`);
        break;
      default:
        prompter.say(
          [JSON.stringify(current, null, 2), ...(tool.definition ? [tool.definition(current)] : [])].join(
            "\n",
          ),
        );
    }
  }
}
