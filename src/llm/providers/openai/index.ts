// Owns the OpenAI provider: its Responses API (responses.ts) by default, its
// Chat Completions with OpenAI's own fields where `api = "chat"`, and its
// model API's lifecycles (models.ts).
import { OPENAI_BASE_URL } from "../../chat-completions.js";
import { OPENAI_DIALECT } from "../../chat-dialect.js";
import type { BuiltInProvider } from "../built-in.js";
import { openaiModelFacts } from "./models.js";

export const openai = {
  name: "openai",
  title: "OpenAI Responses",
  api: "responses",
  baseUrl: OPENAI_BASE_URL,
  keyEnv: ["OPENAI_API_KEY"],
  dialect: () => OPENAI_DIALECT,
  modelFacts: openaiModelFacts,
} as const satisfies BuiltInProvider;
