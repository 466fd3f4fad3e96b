// A workspace wired to the mock LLM server, for turn-loop tests.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Event } from "../../src/events/index.js";
import { baseUrlFor, builtInProvider, type BuiltInName } from "../../src/llm/providers/index.js";
import { ConversationStore } from "../../src/store/conversations.js";
import {
  startMockLlm,
  type MockLlm,
  type MockOptions,
  type MockRoute,
  type ScriptedResponse,
} from "./mock-llm.js";
import { REPO_ROOT, runCli, tempWorkspace, trustAsItIs } from "./workspace.js";

export const API_KEY = "sk-mock-SECRET-4242";

/**
 * The mock's model per provider, where the tests name one: a family the
 * provider's dialect reads (OpenRouter's `anthropic/…`). Any other built-in
 * provider is spoken to as `NAME/mock-model`.
 */
const MOCK_MODELS: Partial<Record<BuiltInName, string>> = {
  anthropic: "claude-mock",
  openai: "gpt-mock",
  google: "gemini-mock",
  ollama: "qwen-mock",
  llamacpp: "qwen-mock",
  openrouter: "anthropic/claude-mock",
  cerebras: "gpt-oss-mock",
};

export interface QWorkspace {
  root: string;
  mock: MockLlm;
  env: Record<string, string>;
  jp: (...args: string[]) => ReturnType<typeof runCli>;
  /** The events of conversation `id`, or of the active one. */
  events: (id?: string) => Event[];
  /** The folder of the conversation made first (the only one, in most tests). */
  folder: () => string;
  close: () => Promise<void>;
}

/** The model (`provider/name`) a test workspace of `provider` asks by default. */
export function mockModel(provider: BuiltInName): string {
  return `${provider}/${MOCK_MODELS[provider] ?? "mock-model"}`;
}

export async function qWorkspace(
  options: {
    provider?: BuiltInName;
    /** Which OpenAI API the mock is spoken to with (default: Chat Completions, as compatible servers are). */
    api?: "chat" | "responses";
    script?: ScriptedResponse[];
    extraConfig?: string;
    toolRun?: string;
    route?: MockRoute;
    /** Lines added to the [assistant.request] table. */
    request?: string;
    /** The model (provider/name) instead of the provider's mock model. */
    model?: string;
    /** How the mock serves (HTTPS, say). */
    mockOptions?: MockOptions;
  } = {},
): Promise<QWorkspace> {
  const ws = tempWorkspace();
  const mock = await startMockLlm(options.script ?? [], options.route, options.mockOptions);
  const provider = options.provider ?? "anthropic";
  const model = options.model ?? mockModel(provider);
  const room = builtInProvider(provider)!;
  // The mock's own model is one its model API knows, as a provider knows the models it serves
  // (an id it does not know is a 404, and jp says so). What it says of it is nothing more than that.
  const name = model.slice(model.indexOf("/") + 1);
  // Only the mock's own: a test that names a model says what the mock's model API knows of it.
  const known =
    room.api === "anthropic"
      ? { type: "model", id: name, display_name: name, created_at: "2026-01-01T00:00:00Z" }
      : room.api === "responses"
        ? { id: name, object: "model", created: 1_767_225_600, owned_by: "system" }
        : room.api === "gemini"
          ? { name: `models/${name}` }
          : undefined;
  if (known && options.model === undefined) mock.models.set(name, known);
  // Where the provider's API sits at the mock: the path of its real base URL (OpenRouter's /api/v1).
  const baseUrl = new URL(baseUrlFor(room, room.api)).pathname.replace(/\/+$/, "");
  const example = fs
    .readFileSync(path.join(REPO_ROOT, "config/examples/count-words.toml"), "utf8")
    .replace('run = "ask"', `run = "${options.toolRun ?? "unattended"}"`);
  fs.writeFileSync(
    path.join(ws.dir, "config.toml"),
    [
      `[assistant.model]\nid = "${model}"\n`,
      `[assistant.request]\nbackoff_ms = 5\n${options.request ?? ""}\n`,
      `[providers.${provider}]\nbase_url = "${mock.url}${baseUrl}"\napi_key_env = "MOCK_API_KEY"\n${provider === "openai" ? `api = "${options.api ?? "chat"}"\n` : ""}`,
      example,
      options.extraConfig ?? "",
    ].join("\n"),
  );
  fs.writeFileSync(path.join(ws.root, "notes.txt"), "one two three four five\n");
  const env = {
    MOCK_API_KEY: API_KEY,
    HOME: ws.root,
    XDG_CONFIG_HOME: path.join(ws.root, "xdg"),
    PATH: process.env.PATH ?? "",
    // No test reaches the internet: the price data is not fetched unless a test serves it.
    JP_PRICE_DATA_URL: "off",
  };
  // The user made this workspace (`jp init`): trusted, for bin/jp too, with what its configuration does now.
  trustAsItIs(ws.root, env);
  const store = new ConversationStore(ws);
  return {
    root: ws.root,
    mock,
    env,
    jp: (...args) => runCli(args, { cwd: ws.root, env }),
    events: (id = store.activeId()) => (id ? store.readEvents(store.resolve(id)) : []),
    folder: () => {
      const dir = path.join(ws.root, ".jp/conversations");
      const first = fs
        .readdirSync(dir)
        .filter((f) => !f.startsWith("."))
        .sort()[0];
      if (first === undefined) throw new Error(`no conversation in ${dir}`);
      return path.join(dir, first);
    },
    close: () => mock.close(),
  };
}

/** The bundled sample conversation (four turns of CSV parser work). */
export const SAMPLE_CONVERSATION = path.join(
  REPO_ROOT,
  "fixtures/sample/.jp/conversations/17900000000-tidy-the-csv-parser",
);

/** A workspace holding a copy of the sample conversation, made the active one. */
export async function sampleWorkspace(options: Parameters<typeof qWorkspace>[0] = {}): Promise<QWorkspace> {
  const w = await qWorkspace(options);
  const target = path.join(w.root, ".jp/conversations", path.basename(SAMPLE_CONVERSATION));
  fs.cpSync(SAMPLE_CONVERSATION, target, { recursive: true });
  await w.jp("c", "use", "17900000000");
  return w;
}
