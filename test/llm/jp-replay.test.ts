// Every chat cassette JP recorded with the seven providers (fixtures/jp-cassettes),
// played through `jp q` as JP's test suite played it. Two sides:
// - the answer: what jp recorded holds everything JP made of the same bytes
//   (text, reasoning, calls, and every signature, encrypted blob and id);
// - the request: what jp sent, field by field against what the real API
//   accepted, every difference accounted for below with why it is right.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { isJsonObject } from "../../src/events/index.js";
import { CASSETTES } from "../support/cassette.js";
import {
  SCENARIOS,
  answerFacts,
  differences,
  jpSnapshotEvents,
  replayCassette,
  unexplained,
  type Difference,
  type Explained,
  type Provider,
  type Scenario,
  type Turn,
} from "../support/jp-replay.js";

const PROVIDERS: Provider[] = [
  "anthropic",
  "openai",
  "google",
  "ollama",
  "llamacpp",
  "openrouter",
  "cerebras",
];

/** Ollama's answer to `POST /api/show` for the model JP recorded with (qwen3.5:9b thinks, calls tools, sees). */
const QWEN_SHOW = {
  capabilities: ["completion", "vision", "tools", "thinking"],
  model_info: { "qwen35.context_length": 262_144 },
};

type Json = Record<string, unknown>;

/** A rewrite of both bodies before they are compared: a difference of form, not of meaning. */
interface SameMeaning {
  providers: Provider[];
  why: string;
  rewrite: (body: Json, side: "recorded" | "sent") => void;
}

const SAME_MEANING: SameMeaning[] = [
  {
    providers: ["openai"],
    why: "JP's test has no system prompt and still sends an empty system message first; jp sends none. An empty message says nothing.",
    rewrite: (body, side) => {
      const input = body.input as Json[];
      if (side === "recorded" && input[0]?.role === "system" && JSON.stringify(input[0].content) === "[]")
        input.shift();
    },
  },
  {
    providers: ["openai"],
    why: "Prompt caching on GPT-5.6: JP marks explicit breakpoints (after the system prompt, after the attachments); jp leaves OpenAI's implicit breakpoint (the default mode), which sits at the end of the prompt and so covers all of a conversation that only appends. Both write the prefix and read it back on the next turn (the recording's usage shows the read).",
    rewrite: (body, side) => {
      if (side !== "recorded") return;
      for (const item of body.input as Json[])
        if (Array.isArray(item.content))
          for (const part of item.content as Json[]) delete part.prompt_cache_breakpoint;
    },
  },
  {
    providers: ["openai"],
    why: "The system prompt as the `instructions` field (jp) or as a system message first (JP): the Responses API reads `instructions` as that message.",
    rewrite: (body, side) => {
      const input = body.input as Json[];
      const first = input[0];
      if (side !== "recorded" || first?.role !== "system") return;
      input.shift();
      body.instructions = textOf(first.content);
    },
  },
  {
    providers: ["openai"],
    why: "A message item in either of the forms the Responses API takes: JP sends an assistant's earlier output as the output item it was (id, status, output_text parts), jp as an input message with its text (EasyInputMessage), its phase kept. Under store: false the id is never looked up. Plain text parts read as their text.",
    rewrite: (body) => {
      body.input = (body.input as Json[]).map((item) => {
        if (item.type !== undefined && item.type !== "message") return item;
        return {
          role: item.role,
          content: textOf(item.content),
          ...(item.phase ? { phase: item.phase } : {}),
        };
      });
    },
  },
  {
    providers: ["openai"],
    why: "Attached text and the question: JP sends the documents as a user message of their own before the question, jp as the first part of the question's message. The model reads the same user turn.",
    rewrite: (body) => {
      const input = body.input as Json[];
      for (let i = input.length - 1; i > 0; i--) {
        const [before, item] = [input[i - 1]!, input[i]!];
        if (
          before.role === "user" &&
          item.role === "user" &&
          typeof before.content === "string" &&
          typeof item.content === "string"
        ) {
          before.content = `${before.content}\n\n${item.content}`;
          input.splice(i, 1);
        }
      }
    },
  },
  {
    providers: ["openrouter", "llamacpp", "cerebras"],
    why: "A message's text as a string or as one text part: the same to Chat Completions.",
    rewrite: (body) => {
      for (const m of body.messages as Json[]) {
        const parts = m.content;
        if (Array.isArray(parts) && parts.length === 1 && (parts[0] as Json).type === "text")
          m.content = (parts[0] as Json).text;
      }
    },
  },
  {
    providers: ["ollama"],
    why: "Ollama: an empty `tool_calls` list is no calls, and a message's unset `thinking` (null) is none.",
    rewrite: (body) => {
      for (const m of body.messages as Json[]) {
        if (Array.isArray(m.tool_calls) && m.tool_calls.length === 0) delete m.tool_calls;
        if (m.thinking === null) delete m.thinking;
      }
    },
  },
  {
    providers: ["ollama"],
    why: "Ollama: JP sends the thinking of an earlier answer as an assistant message of its own with empty content; jp leaves it out (the Qwen template drops earlier turns' thinking) and sends the answer alone. An empty assistant message says nothing.",
    rewrite: (body, side) => {
      if (side !== "recorded") return;
      body.messages = (body.messages as Json[]).filter(
        (m) => !(m.role === "assistant" && m.content === "" && m.tool_calls === undefined),
      );
    },
  },
  {
    providers: ["google"],
    why: "Gemini: a thought summary (a part marked `thought`) is for the reader; Google's thinking guide has only the signatures carry the model's reasoning into the next request, and jp sends each on the part it came with. JP sends the summaries back too.",
    rewrite: (body) => {
      for (const c of body.contents as Json[])
        c.parts = (c.parts as Json[]).filter((p) => p.thought !== true);
    },
  },
];

/**
 * A message's content as text where it is only text: a string, or parts that
 * are plain text (an output_text's empty annotations included). A part with
 * anything more (a cache breakpoint) stays as it is, to be compared.
 */
function textOf(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const plain = (p: Json) =>
    (p.type === "input_text" || p.type === "output_text") &&
    Object.keys(p).every(
      (k) => k === "type" || k === "text" || (k === "annotations" && JSON.stringify(p[k]) === "[]"),
    );
  const parts = content as Json[];
  return parts.every(plain) ? parts.map((p) => p.text).join("\n\n") : content;
}

/** The cap on the answer's length, in each API's words. */
const OUTPUT_CAP = /^(max_tokens|max_output_tokens|generationConfig\.maxOutputTokens|options\.num_predict)$/;
const TOOL_SCHEMA =
  /^tools\[\d+\]\.(function\.)?(parameters|input_schema|parametersJsonSchema)|^tools\[\d+\]\.functionDeclarations\[\d+\]\.parametersJsonSchema/;

/** Whether a difference sits in a request that carries a tool's result. */
interface Where {
  followUp: boolean;
  scenario: string;
}

type Explanation = Explained & { providers?: Provider[]; where?: (w: Where) => boolean };

/** A result jp's argument checker wrote: the model's arguments broke the tool's schema. */
const checkerError = (d: Difference) => /invalid arguments for run_me/.test(JSON.stringify(d.sent));

const EXPLAINED: Explanation[] = [
  {
    at: OUTPUT_CAP,
    why: "Both ask for the model's own output cap unless one is configured; where jp knows none (a recording's model jp has no facts of) it asks for 8,192, and JP asks for nothing or its own default.",
  },
  {
    at: /./,
    where: (w) => w.followUp,
    when: (d) => /^(tools|tool_choice|toolConfig)/.test(d.at),
    why: "JP's harness sends a tool's result in a fresh request with the test's defaults (no tools); jp's turn loop offers the turn's tools on every request of the turn, with the choice left to the model after the first call.",
  },
  {
    at: /^(thinking|reasoning|reasoning_effort|reasoning_format|chat_template_kwargs|think|generationConfig\.thinkingConfig)(\.|$)/,
    where: (w) => w.followUp,
    why: "JP's harness sends a tool's result with reasoning off (its test default); jp keeps the turn's reasoning for every request of the turn, as JP itself does in use.",
  },
  {
    at: /description$/,
    when: (d) =>
      d.sent === "Run printf" && (d.recorded === undefined || d.recorded === null || d.recorded === ""),
    why: "jp describes every tool to the model (its summary, else what it runs); JP's test tool has no description.",
  },
  {
    at: /./,
    when: checkerError,
    why: 'The model\'s arguments broke the tool\'s schema (`bar` is required and must be "foo" or ["foo", "bar"]); jp answers with its checker\'s error so the model can correct the call, where JP ran the tool anyway.',
  },
  {
    at: /is_error$/,
    when: (d) => d.recorded === false && d.sent === true,
    why: "The same checker's answer, marked as an error in Anthropic's way.",
  },
  {
    at: /^contents\[\d+\]\.parts\[\d+\]\.functionResponse\.response\.(content|output|error)$/,
    providers: ["google"],
    why: "Gemini: a tool's result under the keys Google's function-calling guide names (`output`, or `error` for a failure); JP puts it under `content`. The response object's keys are free-form.",
  },
  {
    at: /^input\[\d+\]\.summary\[0\]$/,
    providers: ["openai"],
    when: (d) => JSON.stringify(d.recorded) === '{"type":"summary_text","text":""}' && d.sent === undefined,
    why: "A reasoning item whose summary came empty: JP sends one empty summary part, jp an empty summary list. Neither says anything; the encrypted content is what the model reads.",
  },
  // The tool as each side describes it.
  {
    at: TOOL_SCHEMA,
    providers: ["openai", "openrouter", "llamacpp"],
    why: "JP makes a tool strict (every property required, optional ones nullable, an array's enum moved to its items); jp sends the schema as configured, not strict, so a tool whose schema strict mode cannot express still works.",
  },
  {
    at: /^tools\[\d+\]\.(function\.)?strict$/,
    why: "The same: JP's strict mode, jp's schema as configured.",
  },
  {
    at: TOOL_SCHEMA,
    providers: ["cerebras"],
    when: (d) => /additionalProperties$/.test(d.at) || /\.bar\.(enum|items)/.test(d.at),
    why: "JP rewrites the schema for Cerebras (an array's enum moved to its items, other properties allowed); jp sends it as configured and closed to arguments it does not name.",
  },
  {
    at: /^tools\[\d+\]\.input_schema\.additionalProperties$/,
    providers: ["anthropic"],
    why: "jp closes the tool's object to arguments it does not name, as the schema's author meant; JP leaves it open.",
  },
  {
    at: /^tools\[\d+\]\.(type|function\.(parameters(\.\w+)*))$/,
    providers: ["ollama"],
    why: "JP sends Ollama the parameters map itself (and `Function` as the type); Ollama's API reads a JSON Schema object and `function`, which jp sends.",
  },
  // Defaults said or left unsaid.
  {
    at: /^(tool_choice\.disable_parallel_tool_use|tools\[\d+\]\.type)$/,
    providers: ["anthropic"],
    when: (d) => d.recorded === false || d.recorded === "custom",
    why: "Anthropic's defaults, said by JP and left unsaid by jp (parallel calls allowed; a custom tool).",
  },
  {
    at: /^(tool_choice|tools|truncation|include|max_output_tokens)$/,
    providers: ["openai"],
    when: (d) =>
      (d.recorded === "auto" && d.sent === undefined) ||
      (Array.isArray(d.recorded) && d.recorded.length === 0 && d.sent === undefined),
    why: "The Responses API's defaults, said by JP (no tools, auto) and left unsaid by jp.",
  },
  {
    at: /^truncation$/,
    providers: ["openai"],
    why: "JP lets OpenAI drop items from the middle of a request that outgrows the window (truncation: auto); jp leaves the default (an error), so what the model reads is what jp's compaction decided.",
  },
  {
    at: /^include$/,
    providers: ["openai"],
    why: "jp asks for the encrypted reasoning whenever the model may reason, so it can send it back under store: false; JP asks only when reasoning is on.",
  },
  {
    at: /^prompt_cache_key$/,
    providers: ["openai"],
    why: "Each names its cache by its conversation: JP by its id, jp by its own.",
  },
  {
    at: /^toolConfig(\.|$)/,
    providers: ["google"],
    why: "Gemini: JP asks for VALIDATED calls when tools are offered and says NONE (with an empty list) when none are; jp asks AUTO and, offering no tools, says nothing. Both let the model call only the tools declared.",
  },
  {
    at: /^contents\[\d+\]\.parts\[\d+\]\.(functionCall|functionResponse)\.id$/,
    providers: ["google"],
    why: "Gemini 2.5 gave the call no id; JP sends the one it made up, jp none (the API pairs a result with its call by name and order).",
  },
  {
    at: /^messages\[\d+\]\.(tool_calls\[\d+\]\.id|tool_call_id)$/,
    providers: ["ollama"],
    when: (d) => d.recorded === undefined && typeof d.sent === "string",
    why: "jp sends a call's id back on the call and on its result: Ollama gave it in its answer (`call_…`), and a template that pairs results with calls reads it. JP drops it.",
  },
  {
    at: /^options\.num_ctx$/,
    providers: ["ollama"],
    why: "jp sizes Ollama's context to the request; unsaid, Ollama's default window silently cuts a long prompt.",
  },
  {
    at: /^messages\[\d+\]\.tool_name$/,
    providers: ["ollama"],
    why: "jp names the tool a result came from, as Ollama's API documents (`tool_name`); JP does not.",
  },
  {
    at: /^stream_options$/,
    providers: ["openrouter", "llamacpp", "cerebras"],
    why: "jp asks for the usage chunk at the end of the stream, to record what the answer cost.",
  },
  {
    at: /^messages\[\d+\]\.content$/,
    providers: ["openrouter", "llamacpp", "cerebras"],
    when: (d) => d.recorded === undefined && d.sent === null,
    why: "An assistant message of calls only: jp says its content is null, as the OpenAI SDK's type has it; JP leaves it out.",
  },
  {
    at: /^messages\[\d+\]\.tool_calls\[\d+\]\.index$/,
    providers: ["openrouter"],
    why: "`index` belongs to a streamed call's pieces, not to a call sent back; JP sends it, jp does not.",
  },
  {
    at: /^messages\[\d+\]\.reasoning_details$/,
    providers: ["openrouter"],
    when: (d) => d.recorded === undefined,
    why: "jp sends an assistant's reasoning_details back to the model that wrote them, as OpenRouter's reasoning guide asks (preserving reasoning blocks: the encrypted reasoning and signatures a tool loop needs); JP sends none.",
  },
  {
    at: /^reasoning\.exclude$/,
    providers: ["openrouter"],
    when: (d) => d.recorded === false && d.sent === undefined,
    why: "OpenRouter's default (reasoning included), said by JP and left unsaid by jp.",
  },
  {
    at: /^reasoning_format$/,
    providers: ["llamacpp"],
    when: (d) => d.recorded === "none" && d.sent === undefined,
    why: "With thinking off (enable_thinking: false) there is nothing to parse; JP says how not to parse it.",
  },
  // Reasoning asked for in each side's scale.
  {
    at: /^(thinking\.budget_tokens|generationConfig\.thinkingConfig\.thinkingBudget)$/,
    when: (d) => d.recorded === 12_800 && (d.sent === 16_000 || d.sent === 16_384),
    why: "Effort low as a budget of the model's own output cap: JP's is 20% of its 64,000 tokens, jp's a quarter (16,000; 16,384 of Gemini's 65,536).",
  },
  {
    at: /^reasoning_effort$/,
    providers: ["cerebras"],
    when: (d) => d.recorded === undefined && d.sent === "low",
    why: 'gpt-oss cannot stop reasoning (it takes low, medium or high, no "none"): for reasoning off jp asks for the least, where JP leaves the model\'s default (medium).',
  },
  // Forced tool use.
  {
    at: /^tool_choice(\.type|\.name)?$/,
    where: (w) => /^tool_call_(required|function)|^multi_turn/.test(w.scenario),
    when: (d) =>
      d.recorded === "any" ||
      d.recorded === "required" ||
      (d.at === "tool_choice.name" && d.sent === "run_me") ||
      (isJsonObject(d.recorded) && d.sent === "required"),
    why: 'Forcing a call: jp forces the tool by name (jp q -u run_me); with one tool offered, naming it and "any tool" force the same call. OpenRouter\'s dialect says `required` where JP names the function.',
  },
  {
    at: /^(tool_choice(\.\w+)?|thinking(\.\w+)?|system)$/,
    providers: ["anthropic"],
    where: (w) => w.scenario === "tool_call_required_reasoning",
    why: "Anthropic refuses a forced tool with thinking on: JP keeps thinking and asks for a tool in a system prompt, jp forces the tool and turns thinking off for that request (its reasoning is recorded as off).",
  },
  {
    at: /^(messages\[\d+\](\.\w+)*|tools(\.\w+)*)$/,
    providers: ["ollama"],
    where: (w) =>
      w.scenario === "tool_call_required_reasoning" ||
      w.scenario.startsWith("tool_call_required") ||
      w.scenario === "tool_call_function" ||
      w.scenario === "multi_turn_conversation",
    when: (d) =>
      /IMPORTANT: You MUST use|The user asked for the tool `run_me`/.test(
        JSON.stringify([d.recorded, d.sent]),
      ),
    why: "Ollama cannot force a call: JP asks in a system message after the question, jp in words with the question itself (so a later request only appends).",
  },
  {
    at: /^messages\[\d+\]\.thinking$/,
    providers: ["ollama"],
    when: (d) => d.recorded === undefined && typeof d.sent === "string",
    why: "jp sends an answer's thinking back on its assistant message, as Ollama's thinking and tool-calling guides do (appending the response message whole); the model's template decides what of it the model reads. JP drops it.",
  },
  {
    at: /^(messages\[\d+\](\.\w+)*|tool_choice)$/,
    providers: ["openrouter"],
    where: (w) => w.scenario === "tool_call_required_reasoning",
    why: "JP assumes a reasoning model cannot be forced and asks for a tool in a system message with the choice left auto; jp forces the tool by name, which OpenAI's models (gpt-5-mini here) take while reasoning. Only Anthropic's refuse it.",
  },
  // Attachments.
  {
    at: /^(messages|contents|input)\[\d+\](\.(content|parts)(\[\d+\](\.\w+)*)?|\.images|\.role)?$/,
    where: (w) => w.scenario === "image_attachment",
    why: 'An image with the question: JP sends it in a message of its own before the question (with a "[Attached file: …]" label, or as an Anthropic document titled with its name); jp sends one message, the image beside the question\'s text.',
  },
  {
    at: /^cache_control$|\.cache_control(\.ttl)?$/,
    providers: ["anthropic"],
    why: "Prompt caching: JP marks the request for automatic caching (top-level cache_control); jp sets its own breakpoints on the tools and the last messages. Both are Anthropic's documented markers.",
  },
  // Structured output.
  {
    at: /^(output_config|text|response_format|format|generationConfig\.(responseMimeType|_responseJsonSchema|responseJsonSchema))$/,
    where: (w) => w.scenario === "structured_output",
    why: "jp has no structured-output option: the question is asked as text and the answer recorded as the text it came as.",
  },
];

function explainedFor(provider: Provider, where: Where): Explained[] {
  return EXPLAINED.filter(
    (e) => (e.providers === undefined || e.providers.includes(provider)) && (e.where?.(where) ?? true),
  );
}

/** Which recorded requests carry a tool's result: a tool turn's second request. */
function followUps(scenario: Scenario): boolean[] {
  return scenario.turns.flatMap((t) => (t.tool ? [false, true] : [false]));
}

/** A value as a failure shows it: its JSON, cut short. */
const shown = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v).slice(0, 120));

/** Strings that name something rather than hold it (JP's own field names), not opaque values. */
const isName = (s: string) => /^[a-z_]+$/.test(s);

/** The answer-side exemptions: what JP keeps that jp need not. */
function keptByJpOnly(provider: Provider, value: string): boolean {
  // An output message's id: only looked up with store: true, which neither uses.
  return provider === "openai" && value.startsWith("msg_");
}

/** One cassette to replay: JP's scenario, and what is particular to it. */
interface Case {
  provider: Provider;
  file: string;
  scenario: Scenario;
  /** Differences particular to this cassette, and why they are right. */
  explained?: Explanation[];
  /** Where JP goes on and jp stops: how many of the recorded requests jp makes, and why. */
  stops?: { requests: number; why: string };
  /** Rewrites particular to this cassette (after the common ones). */
  sameMeaning?: SameMeaning[];
}

/** JP names an attached file by its URL, jp by its path in the workspace. */
const ATTACHMENT_NAMES: Explanation = {
  at: /^input\[\d+\]\.content$/,
  when: (d) =>
    typeof d.recorded === "string" && d.recorded.replaceAll("<source>file:///", "<source>") === d.sent,
  why: "An attached file is named by its path in the workspace (jp) or by a file URL (JP); its content is the same.",
};

/** GPT-5.6's reasoning context: JP says the family's default. */
const ALL_TURNS: Explanation = {
  at: /^reasoning\.context$/,
  when: (d) => d.recorded === "all_turns" && d.sent === undefined,
  why: "`reasoning.context: all_turns` is the GPT-5.6 family's default (the SDK's Reasoning type says so); JP says it, jp leaves it.",
};

const COMMON: Case[] = PROVIDERS.flatMap((provider) =>
  Object.entries(SCENARIOS)
    .map(([name, scenario]) => ({ provider, file: `test_${name}`, scenario }))
    .filter((c) => fs.existsSync(path.join(CASSETTES, provider, `${c.file}.yml`))),
);

const RUN_ME_FOO_ONLY = {
  names: ["run_me"],
  toml: [
    "[conversation.tools.run_me]",
    'source = "local"',
    'command = ["printf", "%s", "working!"]',
    'run = "unattended"',
    "[conversation.tools.run_me.parameters.foo]",
    'type = "string"',
    'default = "foo"',
    "",
  ].join("\n"),
};

/** A tool of no parameters that prints `<name> completed`, as JP's parallel-call test answers. */
const completes = (name: string) =>
  [
    `[conversation.tools.${name}]`,
    'source = "local"',
    `command = ["printf", "%s", "${name} completed"]`,
    'run = "unattended"',
    "",
  ].join("\n");

/** JP's provider-specific tests (anthropic_tests.rs, openai_tests.rs…), each as `jp q` plays it. */
const SPECIAL: Case[] = [
  {
    provider: "anthropic",
    file: "test_redacted_thinking",
    scenario: {
      turns: [
        {
          question:
            "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB",
          reasoning: "low",
        },
        { question: "Do you have access to your redacted thinking content?", reasoning: "off" },
      ],
    },
  },
  {
    provider: "anthropic",
    file: "test_request_chaining",
    scenario: {
      request: "max_tokens = 1152",
      turns: [
        {
          question: "Give me a 2000 word explainer about Kirigami-inspired parachutes",
          reasoning: { budget: 1024 },
        },
      ],
    },
    explained: [
      {
        at: /^messages\[(1\]\.content\[[2-9]\]|[3-9]\])$/,
        why: "Both ask the model to go on with the same words when the output cap cuts the answer. JP then sends each piece back as it came, each with the reasoning it wrote and followed by its request to go on; jp sends the answer so far as one message, joined where each piece repeated the last, and asks once: the model reads the same answer.",
      },
    ],
  },
  {
    provider: "anthropic",
    file: "test_fable_5_forced_tool_soft_forces",
    scenario: {
      tools: RUN_ME_FOO_ONLY,
      turns: [toolCall("run_me", "low")],
      beyond: [{ text: "The tool ran." }],
    },
    explained: [
      {
        at: /^(messages\[0\]\.content\[0\]\.text|system)$/,
        when: (d) =>
          /IMPORTANT: You MUST use|The user asked for the tool `run_me`/.test(
            JSON.stringify([d.recorded, d.sent]),
          ),
        why: "Fable 5 always thinks, and Anthropic refuses a forced tool while thinking: both ask for the tool instead, JP in a system prompt, jp in words with the question itself (so a later request only appends, and the reasoning bound to it stays valid).",
      },
    ],
  },
  {
    provider: "anthropic",
    file: "test_opus_4_6_adaptive_thinking",
    scenario: { turns: [{ question: "What is 2 + 2?", reasoning: "high" }] },
  },
  {
    provider: "anthropic",
    file: "test_opus_4_6_max_effort",
    scenario: { turns: [{ question: "What is 2 + 2?", reasoning: "max" }] },
  },
  {
    provider: "openai",
    file: "test_gpt_5_6_cache_off_sends_explicit_optout",
    scenario: {
      system: "You are a concise assistant.",
      cacheOff: true,
      files: { "notes.txt": "The magic number is 42." },
      turns: [{ question: "What is 7 * 191?", reasoning: "low", attach: "notes.txt" }],
    },
    explained: [ATTACHMENT_NAMES, ALL_TURNS],
  },
  {
    provider: "openai",
    file: "test_gpt_5_6_pro_reasoning_and_explicit_caching",
    scenario: {
      system: "You are a concise assistant.",
      files: { "notes.txt": "The magic number is 42." },
      turns: [
        {
          question: "What is 7 * 191? Reason it through step by step.",
          reasoning: "low",
          attach: "notes.txt",
        },
        { question: "Repeat your previous answer.", reasoning: "low" },
      ],
    },
    explained: [
      ATTACHMENT_NAMES,
      ALL_TURNS,
      {
        at: /^reasoning\.mode$/,
        when: (d) => d.recorded === "pro" && d.sent === undefined,
        why: "JP's test sets GPT-5.6's pro mode through a free-form model parameter (`reasoning_mode`); jp has no such setting, and asks in the standard mode.",
      },
    ],
  },
  {
    provider: "openai",
    file: "test_gpt_5_6_prompt_cache_read_after_write",
    scenario: {
      system: "You are a concise assistant.",
      files: { "novel.txt": "The quick brown fox jumps over the lazy dog. ".repeat(400) },
      turns: [
        { question: "What animal jumps over the dog?", reasoning: "off", attach: "novel.txt" },
        { question: "And what animal gets jumped over?", reasoning: "off" },
      ],
    },
    explained: [ATTACHMENT_NAMES],
  },
  {
    provider: "openai",
    file: "test_reasoning_history_replayed_to_reasoning_unsupported_model",
    scenario: {
      turns: [
        { question: "What is 7 * 191?", reasoning: "low" },
        { question: "Repeat your previous answer.", reasoning: "off", model: "openai/gpt-4o" },
      ],
    },
    sameMeaning: [
      {
        providers: ["openai"],
        why: "Reasoning goes back only to the model that wrote it: gpt-5-mini's encrypted reasoning is sent to gpt-4o by JP (the API took it), not by jp, as a model cannot read another's encrypted reasoning. Left out of the comparison here; the rest must agree.",
        rewrite: (body, side) => {
          if (side === "recorded" && body.model === "gpt-4o")
            body.input = (body.input as Json[]).filter((i) => i.type !== "reasoning");
        },
      },
    ],
  },
  {
    provider: "google",
    file: "test_gemini_3_reasoning",
    scenario: {
      // Recorded while Google still served it; it was shut down on 2026-03-09, and jp now refuses it.
      config: '[models."google/gemini-3-pro-preview"]\nlifecycle = "active"',
      turns: [{ question: "Test message", reasoning: "low" }],
    },
    explained: [
      {
        at: /^generationConfig\.thinkingConfig\.(thinkingBudget|thinkingLevel)$/,
        when: (d) =>
          (d.recorded === 12_800 && d.sent === undefined) || (d.recorded === null && d.sent === "LOW"),
        why: "Gemini 3 thinks by level (Google's thinking guide: thinkingLevel for Gemini 3, budgets kept for compatibility); JP sent this model a budget when it was recorded, jp sends the level.",
      },
    ],
  },
  {
    provider: "google",
    file: "test_unknown_model_inferred_thinking_level",
    scenario: { turns: [{ question: "What is 2 + 2?", reasoning: "high" }] },
  },
  {
    provider: "cerebras",
    file: "test_unknown_model_auto_omits_effort",
    scenario: { turns: [{ question: "What is 2 + 2?", reasoning: "unsaid" }] },
  },
  {
    provider: "cerebras",
    file: "test_unknown_model_off_sends_none",
    scenario: { turns: [{ question: "What is 2 + 2?", reasoning: "off" }] },
  },
  ...["anthropic", "google", "minimax", "x-ai"].map((sub): Case => ({
    provider: "openrouter",
    file: `${sub}_test_sub_provider_event_metadata`,
    scenario: { turns: [{ question: "Test message", reasoning: "low" }] },
  })),
  {
    provider: "openrouter",
    file: "test_anthropic_opus_5_parallel_tool_round_trip",
    scenario: {
      tools: {
        names: ["list_items", "search_items"],
        toml: completes("list_items") + completes("search_items"),
      },
      turns: [
        {
          question:
            "Call both list_items and search_items in parallel. Do not answer with text before calling both tools.",
          reasoning: "low",
          tool: "auto",
        },
      ],
    },
  },
];

/** A tool turn of JP's that forces `name`. */
function toolCall(name: "run_me", reasoning: Turn["reasoning"]): Turn {
  return { question: "Please run the tool, providing whatever arguments you want.", reasoning, tool: name };
}

function replayCase(c: Case): void {
  it(c.file.replace(/^test_/, ""), async () => {
    const r = await replayCassette(c.provider, c.file, c.scenario, (w) => {
      if (c.provider === "ollama") w.mock.gets.set("/api/show", QWEN_SHOW);
    });
    try {
      expect(r.failures).toEqual([]);
      if (c.stops)
        expect(r.w.events().findLast((e) => e.type === "chat_response")?.metadata).toMatchObject({
          stop_reason: "max_tokens",
        });
      const recorded = r.recorded.slice(0, c.stops?.requests ?? r.recorded.length);
      expect(r.w.mock.requests.length).toBeGreaterThanOrEqual(recorded.length);
      const follow = followUps(c.scenario);
      const scenario = c.file.replace(/^test_/, "");
      const left: string[] = [];
      for (const [i, rec] of recorded.entries()) {
        const sent = structuredClone(r.w.mock.requests[i]!.body);
        const accepted = structuredClone(rec.request!);
        for (const s of [
          ...SAME_MEANING.filter((s) => s.providers.includes(c.provider)),
          ...(c.sameMeaning ?? []),
        ]) {
          s.rewrite(accepted, "recorded");
          s.rewrite(sent, "sent");
        }
        const rules = [
          ...explainedFor(c.provider, { followUp: follow[i] ?? false, scenario }),
          ...(c.explained ?? []),
        ];
        for (const d of unexplained(differences(accepted, sent), rules))
          left.push(`request ${i + 1}: ${d.at}: recorded ${shown(d.recorded)}, jp sent ${shown(d.sent)}`);
      }
      expect(left, "request differences no entry explains").toEqual([]);

      const want = answerFacts(jpSnapshotEvents(c.provider, c.file)!);
      const got = answerFacts(r.w.events());
      // What jp went on to be answered past the recording is its own, after JP's.
      const beyond = (c.scenario.beyond ?? []).map((b) => b.text ?? "").join("");
      if (c.stops === undefined) expect(got.text).toBe(want.text + beyond);
      else expect(want.text.startsWith(got.text)).toBe(true);
      expect(want.reasoning.startsWith(got.reasoning)).toBe(true);
      if (c.stops === undefined) expect(got.reasoning).toBe(want.reasoning);
      // The calls as the model made them; the id where the provider gave one (JP makes up ids for Gemini's and Ollama's).
      const madeUp = c.provider === "google" || c.provider === "ollama";
      const calls = (f: typeof want) =>
        f.calls.map((call) => ({
          name: call.name,
          arguments: call.arguments,
          ...(madeUp ? {} : { id: call.id }),
        }));
      expect(calls(got).slice(0, want.calls.length)).toEqual(calls(want));
      // Where jp stops before JP, what JP kept of the answers jp never asked for is not jp's to keep.
      const read = recorded.map((rec) => rec.body);
      const lost = want.opaque.filter(
        (o) =>
          !isName(o) &&
          !keptByJpOnly(c.provider, o) &&
          !got.opaque.includes(o) &&
          (c.stops === undefined || read.some((b) => b.includes(o))),
      );
      expect(lost, "signatures, encrypted reasoning and ids JP kept").toEqual([]);
    } finally {
      await r.w.close();
    }
  });
}

for (const provider of PROVIDERS)
  describe(`${provider}, JP's recordings through jp q`, () => {
    for (const c of [...COMMON, ...SPECIAL].filter((c) => c.provider === provider)) replayCase(c);
  });
