// Owns titles written by a model (`conversation.title.generate.model`): a
// short request after a new conversation's first answer, its reply cleaned to
// one line.
import type { Config } from "../config/schema.js";
import { askOnce } from "./one-shot.js";
import { trimEndOf } from "../trim.js";

const TITLE_INSTRUCTIONS =
  "You title conversations between a software developer and an assistant. Reply with the title alone: at most 8 words, no quotes, no final period.";

/** A title for a conversation that opened with `question` and got `answer`, by `model`. */
export async function generateTitle(
  question: string,
  answer: string,
  model: string,
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const { text } = await askOnce(
    {
      model,
      system: TITLE_INSTRUCTIONS,
      question: `Title this conversation.\n\n<question>\n${question.slice(0, 4000)}\n</question>\n\n<answer>\n${answer.slice(0, 2000)}\n</answer>`,
      maxTokens: 64,
    },
    config,
    env,
  );
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const title = trimEndOf(
    line.replace(/^\s*(title:\s*)?/i, "").replace(/^["'`*#\s]+/, ""),
    "\"'`*. \t\r",
  ).trim();
  return title || undefined;
}
