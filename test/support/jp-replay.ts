// JP's recorded conversations with each provider, played through `jp q`:
// the scenario JP's test suite ran (crates/jp_llm/src/provider_tests.rs at
// dcdpr/jp 4c1c39f1), turned into the `jp q` commands a user would type, the
// recorded answers replayed in order, and both sides made comparable: the
// requests jp sent against the ones the real API accepted, and the events jp
// recorded against the ones JP made of the same bytes.
import * as fs from "node:fs";
import * as path from "node:path";
import { isJsonObject, type Event } from "../../src/events/index.js";
import { convertJpConversation } from "../../src/store/import-jp.js";
import { CASSETTES, cassette, replayed, type Interaction } from "./cassette.js";
import type { ScriptedResponse } from "./mock-llm.js";
import { qWorkspace, type QWorkspace } from "./q-workspace.js";
import { tempDir } from "./workspace.js";

export type Provider = "anthropic" | "openai" | "google" | "ollama" | "llamacpp" | "openrouter" | "cerebras";

/** One `jp q` of a scenario. */
export interface Turn {
  question: string;
  /**
   * JP's reasoning setting: an effort (`enable_reasoning()` is low), a
   * thinking budget, off (JP's test default), or unsaid (JP's `auto`).
   */
  reasoning: "off" | "unsaid" | "low" | "high" | "max" | { budget: number };
  /** JP's `tool_choice`: none offered, auto, any tool, or `run_me` by name. */
  tool?: "auto" | "required" | "run_me";
  /** The model of this turn, when it is not the cassette's first (`-m`). */
  model?: string;
  /** Files of the workspace attached to the question (`-a`), or one from the cassettes' folder. */
  attach?: string;
}

/** A scenario: its turns, and what its workspace holds. */
export interface Scenario {
  turns: Turn[];
  /** The tools the scenario offers, by name and as jp configures them (TOML); JP's `run_me` unless said. */
  tools?: { names: string[]; toml: string };
  /** What `run_me` prints when the model calls it. */
  toolResult?: string;
  /** The system prompt (JP's tests send none unless they say). */
  system?: string;
  /** Lines of the [assistant.request] table (an output cap). */
  request?: string;
  /** More configuration (TOML), e.g. a model recorded before it was shut down, said to be active. */
  config?: string;
  /** Prompt caching off (`assistant.cache = false`). */
  cacheOff?: boolean;
  /** Files written into the workspace before the first turn. */
  files?: Record<string, string>;
  /** Answers past the recording: where JP's test stopped at a tool call that jp goes on to answer. */
  beyond?: ScriptedResponse[];
}

const TOOL_QUESTION = "Please run the tool, providing whatever arguments you want.";
const toolTurn = (turn: Partial<Turn>): Turn => ({
  question: TOOL_QUESTION,
  reasoning: "off",
  tool: "auto",
  ...turn,
});

/** JP's scenarios run against every provider (provider_tests.rs), by test name. */
export const SCENARIOS: Record<string, Scenario> = {
  chat_completion_stream: { turns: [{ question: "Test message", reasoning: "low" }] },
  tool_call_stream: { turns: [toolTurn({})] },
  tool_call_auto: { turns: [toolTurn({})] },
  tool_call_function: { turns: [toolTurn({ tool: "run_me" })] },
  tool_call_reasoning: { turns: [toolTurn({ reasoning: "low" })] },
  tool_call_required_no_reasoning: { turns: [toolTurn({ tool: "required" })] },
  tool_call_required_reasoning: { turns: [toolTurn({ tool: "required", reasoning: "low" })] },
  image_attachment: {
    turns: [
      {
        question: "What fruit is in this image? Answer with just the fruit name, nothing else.",
        reasoning: "off",
        attach: path.join(CASSETTES, "banana.jpg"),
      },
    ],
  },
  structured_output: { turns: [{ question: "Generate a title for this conversation.", reasoning: "off" }] },
  multi_turn_conversation: {
    toolResult: "The secret code is: 42",
    turns: [
      { question: "Test message", reasoning: "off" },
      { question: "Repeat my previous message", reasoning: "low" },
      toolTurn({ tool: "run_me" }),
      { question: "What was the result of the previous tool call?", reasoning: "low" },
    ],
  },
};

/** The tool JP's scenarios offer (`tool_call_base`), as jp configures it. */
function runMeTool(result: string): string {
  return [
    "[conversation.tools.run_me]",
    'source = "local"',
    `command = ["printf", "%s", ${JSON.stringify(result)}]`,
    'run = "unattended"',
    "[conversation.tools.run_me.parameters.foo]",
    'type = "string"',
    'default = "foo"',
    "[conversation.tools.run_me.parameters.bar]",
    'type = ["string", "array"]',
    'enum = ["foo", ["foo", "bar"]]',
    'items = { type = "string" }',
    "required = true",
    "",
  ].join("\n");
}

/** The model a cassette's first chat request names (Gemini names it in the path). */
export function recordedModel(interactions: Interaction[]): string {
  const first = interactions[0]!;
  const named = first.request?.model;
  if (typeof named === "string") return named;
  const fromPath = /\/models\/([^/:]+):/.exec(first.path)?.[1];
  if (fromPath === undefined) throw new Error(`no model in ${first.path}`);
  return fromPath;
}

/** The reasoning flags of a turn. */
function reasoningArgs(reasoning: Turn["reasoning"]): string[] {
  if (reasoning === "off") return ["-R"];
  if (reasoning === "unsaid") return [];
  if (typeof reasoning === "object")
    return ["-r", "-c", `assistant.reasoning.budget_tokens=${reasoning.budget}`];
  return ["-r", "-c", `assistant.reasoning.effort=${reasoning}`];
}

/** The flags of one turn's `jp q`, offering `tools`. */
function turnArgs(turn: Turn, first: boolean, tools: string[]): string[] {
  const args = first ? ["q", "-n"] : ["q"];
  args.push(...reasoningArgs(turn.reasoning));
  if (turn.model) args.push("-m", turn.model);
  // Only the scenario's tools are offered, as JP's test offers them alone.
  args.push("-T");
  if (turn.tool === "run_me" || turn.tool === "required") args.push("-u", "run_me");
  else if (turn.tool === "auto") args.push(...tools.map((t) => `-t=${t}`));
  if (turn.attach) args.push("-a", turn.attach);
  args.push(turn.question);
  return args;
}

export interface Replay {
  w: QWorkspace;
  recorded: Interaction[];
  /** What each `jp q` printed, when it failed. */
  failures: string[];
}

/** Play a cassette's scenario through `jp q`, the recorded answers served in order. */
export async function replayCassette(
  provider: Provider,
  file: string,
  scenario: Scenario,
  /** What the mock must answer besides the recorded requests (a model lookup). */
  setup?: (w: QWorkspace) => void,
): Promise<Replay> {
  const recorded = cassette(`${provider}/${file}`).filter((i) => i.request !== undefined);
  const w = await qWorkspace({
    provider,
    ...(provider === "openai" ? { api: "responses" as const } : {}),
    model: `${provider}/${recordedModel(recorded)}`,
    script: [...recorded.map(replayed), ...(scenario.beyond ?? [])],
    ...(scenario.request ? { request: scenario.request } : {}),
    extraConfig: [
      `[assistant]\nsystem_prompt = ${JSON.stringify(scenario.system ?? "")}${scenario.cacheOff ? "\ncache = false" : ""}`,
      scenario.tools?.toml ?? runMeTool(scenario.toolResult ?? "working!"),
      scenario.config ?? "",
    ].join("\n"),
  });
  for (const [name, content] of Object.entries(scenario.files ?? {}))
    fs.writeFileSync(path.join(w.root, name), content);
  setup?.(w);
  const failures: string[] = [];
  for (const [i, turn] of scenario.turns.entries()) {
    const out = await w.jp(...turnArgs(turn, i === 0, scenario.tools?.names ?? ["run_me"]));
    if (out.code !== 0) failures.push(`turn ${i + 1} (exit ${out.code}): ${out.stderr.trim()}`);
  }
  return { w, recorded, failures };
}

// --- the request side ---------------------------------------------------------

export interface Difference {
  /** Where in the body, as `a.b[2].c`. */
  at: string;
  recorded: unknown;
  sent: unknown;
}

/**
 * Every place where what jp sent differs from what the real API accepted:
 * objects key by key, arrays item by item. A recorded `null` is an unset
 * field (JP's serializer writes them), the same to the API as leaving it out.
 */
export function differences(recorded: unknown, sent: unknown, at = ""): Difference[] {
  if (recorded === null && sent === undefined) return [];
  if (Array.isArray(recorded) && Array.isArray(sent)) {
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(recorded.length, sent.length); i++)
      out.push(...differences(recorded[i], sent[i], `${at}[${i}]`));
    return out;
  }
  if (isJsonObject(recorded) && isJsonObject(sent)) {
    const keys = new Set([...Object.keys(recorded), ...Object.keys(sent)]);
    return [...keys].flatMap((k) => differences(recorded[k], sent[k], at ? `${at}.${k}` : k));
  }
  return JSON.stringify(recorded) === JSON.stringify(sent) ? [] : [{ at, recorded, sent }];
}

/** Why a difference is right: where it is, and (optionally) what it must look like there. */
export interface Explained {
  at: RegExp;
  why: string;
  when?: (d: Difference) => boolean;
}

/** The differences no entry of `explained` accounts for. */
export function unexplained(found: Difference[], explained: Explained[]): Difference[] {
  return found.filter((d) => !explained.some((e) => e.at.test(d.at) && (e.when?.(d) ?? true)));
}

// --- the answer side ----------------------------------------------------------

/** JP's own record of the scenario (`…__conversation_stream.snap`), read by jp's importer of JP conversations. */
export function jpSnapshotEvents(provider: Provider, file: string): Event[] | undefined {
  const snap = path.join(CASSETTES, provider, `${file}__conversation_stream.snap`);
  if (!fs.existsSync(snap)) return undefined;
  const text = fs.readFileSync(snap, "utf8");
  const json = JSON.parse(text.slice(text.indexOf("\n{") + 1)) as { events: unknown[] };
  const dir = path.join(tempDir("jp-snap-"), "17000000000");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "events.json"), JSON.stringify(json.events));
  const converted = convertJpConversation(dir);
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  if ("reason" in converted) throw new Error(`${snap}: ${converted.reason}`);
  return converted.events;
}

/** What an answer held, as both sides can state it. */
export interface AnswerFacts {
  text: string;
  reasoning: string;
  calls: { id: string; name: string; arguments: unknown }[];
  results: string[];
  /** Every long opaque string (signatures, encrypted reasoning, provider ids) kept anywhere in the events' metadata. */
  opaque: string[];
}

function opaqueStrings(value: unknown, out: Set<string>): void {
  if (typeof value === "string") {
    if (value.length >= 16 && !/\s/.test(value)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) opaqueStrings(v, out);
  else if (isJsonObject(value)) for (const v of Object.values(value)) opaqueStrings(v, out);
}

export function answerFacts(events: Event[]): AnswerFacts {
  const facts: AnswerFacts = { text: "", reasoning: "", calls: [], results: [], opaque: [] };
  const opaque = new Set<string>();
  for (const e of events) {
    if (e.type === "chat_response") {
      // A structured answer: JP keeps the parsed value (the text itself when it did not parse), jp the text it came as.
      const data =
        typeof e.data === "string" ? e.data : e.data !== undefined ? JSON.stringify(e.data) : undefined;
      facts.text += data ?? e.message ?? "";
      facts.reasoning += e.reasoning ?? "";
    } else if (e.type === "tool_call_request")
      facts.calls.push({ id: e.id, name: e.name, arguments: e.arguments });
    else if (e.type === "tool_call_response") facts.results.push(e.content);
    if ("metadata" in e) opaqueStrings(e.metadata, opaque);
  }
  facts.opaque = [...opaque].sort();
  facts.text = canonicalJson(facts.text);
  return facts;
}

/** Text that is one JSON value, written without its spacing; any other text as it is. */
function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
