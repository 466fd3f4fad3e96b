// Owns tools defined in config that run a local command: arguments arrive as
// JSON on stdin and in `{{name}}` placeholders (and JP's `{{context}}`,
// `{{tool}}`, `{{tool.arguments.NAME}}`, `{{tool.answers}}`); stdout is the
// result, or JP's Outcome when the command prints one (jp-outcome.ts); a
// non-zero exit is an error result with stderr. No shell is involved.
import { isJsonObject } from "../events/index.js";
import { resolveEnable } from "../config/enable.js";
import type { Config, ToolConfig } from "../config/schema.js";
import { JpError } from "../errors.js";
import { endedWithJp } from "./process-group.js";
import type { AccessPolicy } from "./jp-access.js";
import type { Tool, ToolContext, ToolOutcome } from "./types.js";
import { trimEndOf } from "../trim.js";

export const DEFAULT_TIMEOUT_SECS = 60;
/** How much of a tool's output the model is shown by default (head and tail; the log keeps it whole). */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
/** How much of a tool's output the log keeps; beyond it, the size is noted. */
export const RECORDED_OUTPUT_BYTES = 10 * 1024 * 1024;

/** The view's cap of each tool's output: its `max_output_bytes`, the `*` one, or the default. */
export function outputCapOf(config: Config): (toolName: string) => number {
  const tools = config.conversation?.tools ?? {};
  const fallback = tools["*"]?.max_output_bytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return (name) => (Object.hasOwn(tools, name) ? tools[name]?.max_output_bytes : undefined) ?? fallback;
}

/** Config `parameters` (name → schema with an optional `required = true`) as a JSON Schema object. */
export function parametersSchema(parameters: Record<string, unknown> | undefined): Record<string, unknown> {
  const { properties, required } = propertiesSchema(parameters ?? {});
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** Properties given as JP writes them (each with its own `required = true`), and the list JSON Schema wants of those. */
function propertiesSchema(given: Record<string, unknown>): {
  properties: Record<string, unknown>;
  required: string[];
} {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, raw] of Object.entries(given)) {
    properties[name] = parameterSchema(raw);
    if (isJsonObject(raw) && raw.required === true) required.push(name);
  }
  return { properties, required };
}

/**
 * One parameter as JSON Schema: the `required = true` of the properties of
 * an object (or of its array's items) made that object's `required` list,
 * as JP's to_json_schema makes it; a `required` list already given is kept.
 */
function parameterSchema(raw: unknown): Record<string, unknown> {
  const { required: given, ...schema } = isJsonObject(raw) ? raw : {};
  if (isJsonObject(schema.items)) schema.items = parameterSchema(schema.items);
  const listed: unknown[] = Array.isArray(given) ? given : [];
  if (!isJsonObject(schema.properties)) return listed.length ? { ...schema, required: listed } : schema;
  const nested = propertiesSchema(schema.properties);
  const required = [...new Set([...listed, ...nested.required])];
  return { ...schema, properties: nested.properties, ...(required.length ? { required } : {}) };
}

/**
 * `args` with the `default` of each parameter the model left out, in
 * objects and in the objects of arrays too, as JP fills them before it
 * checks a call (jp_llm's apply_parameter_defaults: "LLMs commonly omit
 * parameters that have a `default` in the JSON schema, even when those
 * parameters are marked `required`").
 */
export function withParameterDefaults(
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
): Record<string, unknown> {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const out = { ...args };
  for (const [name, property] of Object.entries(properties)) {
    if (!isJsonObject(property)) continue;
    const value = out[name];
    if (value === undefined) {
      if (property.default !== undefined) out[name] = structuredClone(property.default);
    } else if (isJsonObject(value) && isJsonObject(property.properties))
      out[name] = withParameterDefaults(value, property);
    else if (
      Array.isArray(value) &&
      isJsonObject(property.items) &&
      isJsonObject(property.items.properties)
    ) {
      const items = property.items;
      out[name] = value.map((item: unknown) =>
        isJsonObject(item) ? withParameterDefaults(item, items) : item,
      );
    }
  }
  return out;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/** What JP's templates see besides the arguments: `context` (jp_tool's Context) and `tool`. */
export interface JpScope {
  context: {
    root: string;
    action: "run";
    /** The tool's `access`, compiled; null (the whole workspace) without one. */
    access: AccessPolicy | null;
    workspace_id: string;
    conversation_id: string;
  };
  tool: {
    name: string;
    arguments: Record<string, unknown>;
    answers: Record<string, unknown>;
    options: Record<string, unknown>;
  };
}

/** The flags that make each interpreter run its next argument as a program. */
const INLINE_SCRIPT_FLAGS: Readonly<Record<string, (flag: string) => boolean>> = {
  ...Object.fromEntries(
    // `-c` alone or in a cluster of short options: `bash -lc`, `sh -ec`.
    ["sh", "bash", "zsh", "dash", "ksh", "fish"].map((shell) => [
      shell,
      (f: string) => /^-[a-z]+$/.test(f) && f.includes("c"),
    ]),
  ),
  node: (f) => ["-e", "--eval", "-p", "--print"].includes(f),
  python: (f) => f === "-c",
  perl: (f) => f === "-e" || f === "-E",
  ruby: (f) => f === "-e",
};

/**
 * Where a command puts placeholders into a script an interpreter runs
 * (`["sh", "-c", "grep {{pattern}} src"]`): a placeholder is filled in as
 * text, so there the model's argument would become code. Its own argument
 * (`["sh", "-c", "grep \"$1\" src", "sh", "{{pattern}}"]`) stays data.
 */
export function placeholdersInScript(
  argv: readonly string[],
): { interpreter: string; flag: string; names: string[] } | undefined {
  const base = (program: string) => trimEndOf(program.replace(/^.*\//, ""), "0123456789.");
  // `env [-i] [NAME=value…] program …` runs the program after it.
  let at = 0;
  if (base(argv[0] ?? "") === "env") {
    at = 1;
    while (at < argv.length && /^-|=/.test(argv[at]!)) at++;
  }
  const isScriptFlag = INLINE_SCRIPT_FLAGS[base(argv[at] ?? "")];
  if (!isScriptFlag) return undefined;
  for (let i = at + 1; i < argv.length - 1; i++) {
    if (!isScriptFlag(argv[i]!)) continue;
    const names = [...argv[i + 1]!.matchAll(PLACEHOLDER)].map((m) => m[1]!);
    if (names.length > 0) return { interpreter: argv[at]!, flag: argv[i]!, names: [...new Set(names)] };
  }
  return undefined;
}

/**
 * A command word with its placeholders filled: `{{name}}` an argument's
 * value, and with `scope` JP's `{{context}}` and `{{tool…}}` paths. A value
 * is written as JP's templates write it: a string as it is, anything else as
 * JSON; a missing one as nothing.
 */
export function fillTemplate(argument: string, args: Record<string, unknown>, scope?: JpScope): string {
  return argument.replace(PLACEHOLDER, (_, path: string) => {
    const [first = "", ...rest] = path.split(".");
    const root: unknown = scope && (first === "context" || first === "tool") ? scope[first] : undefined;
    // Own keys only: `{{constructor}}` must not reach Object.prototype's.
    const at = (value: unknown, key: string) =>
      isJsonObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    const value =
      root !== undefined ? rest.reduce(at, root) : rest.length === 0 ? at(args, first) : undefined;
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

/** Cut text beyond `max` bytes (what the log keeps), saying how much was cut. */
export function truncateOutput(text: string, max: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  const kept = bytes
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${kept}\n[… ${bytes.length - Buffer.byteLength(kept)} more bytes cut]`;
}

/** Where a local tool's environment comes from. */
export interface ToolEnvironment {
  /** jp's own environment. */
  env: NodeJS.ProcessEnv;
  /** The workspace root, given to the tool as JP_WORKSPACE. */
  workspace: string;
  /** Variable names never passed on (provider keys). */
  secrets: ReadonlySet<string>;
  /** Tools defined only by the conversation's recorded config, not by the user's files. */
  fromConversation?: ReadonlySet<string>;
  /** Who runs the tool, as a JP tool's {{context}} names them. */
  invocation?: { workspaceId: string; conversationId: string };
}

const BASE_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR"];

/**
 * A tool runs with a minimal environment: the basics, the workspace, and the
 * names its config lists in `env`; never a provider key, so a tool (or a
 * command a conversation defined) cannot read one.
 */
export function toolEnvironment(
  environment: ToolEnvironment,
  listed: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...listed]) {
    const value = environment.env[name];
    if (value !== undefined && !environment.secrets.has(name)) out[name] = value;
  }
  out.JP_WORKSPACE = environment.workspace;
  return out;
}

/** The command's words as configured; a usage error when it names no program. */
function commandWords(name: string, config: ToolConfig): [string, ...string[]] {
  const command = config.command ?? [];
  const argv = Array.isArray(command) ? command : command.split(/\s+/).filter(Boolean);
  const [program, ...rest] = argv;
  if (program === undefined || program.trim() === "") {
    throw new JpError("tools.invalid", `tool ${name} has source = "local" but no command`, {
      hint: `set conversation.tools.${name}.command = ["program", "arg", "{{name}}"]`,
      exitCode: 2,
    });
  }
  return [program, ...rest];
}

/** The arguments' checker (zod's, loaded here, when a config defines a local tool); a usage error for a schema it cannot check. */
async function checkerOf(name: string, parameters: Record<string, unknown>) {
  const { argumentChecker } = await import("./argument-checker.js");
  try {
    return argumentChecker(parameters);
  } catch (error) {
    throw new JpError(
      "tools.invalid",
      `conversation.tools.${name}.parameters is not a JSON Schema jp can check: ${error instanceof Error ? error.message : String(error)}`,
      { hint: 'give each parameter a JSON Schema such as { type = "string" }', exitCode: 2 },
    );
  }
}

/** Why a command whose placeholder sits inside an interpreter's script is always asked for; undefined when none does. */
function injectionOf(argv: readonly string[]): string | undefined {
  const injected = placeholdersInScript(argv);
  if (!injected) return undefined;
  return `it puts ${injected.names.map((n) => `{{${n}}}`).join(", ")} into the script \`${injected.interpreter} ${injected.flag}\` runs, so the model's text would run as code; pass each as an argument of its own (for a shell, "$1" in the script and ["…", "sh", "{{${injected.names[0]}}}"] after it)`;
}

/** A local tool from its config. */
export async function createLocalTool(
  name: string,
  config: ToolConfig,
  defaults: ToolConfig = {},
  environment: ToolEnvironment = { env: process.env, workspace: process.cwd(), secrets: new Set() },
): Promise<Tool> {
  const argv = commandWords(name, config);
  const parameters = parametersSchema(config.parameters);
  const validate = await checkerOf(name, parameters);
  // A placeholder inside an interpreter's script lets the model write code: never run it unasked.
  const injection = injectionOf(argv);
  const configuredRun = config.run ?? defaults.run ?? "ask";
  const downgraded = injection !== undefined && configuredRun === "unattended";
  const limits = { timeoutMs: (config.timeout_secs ?? defaults.timeout_secs ?? DEFAULT_TIMEOUT_SECS) * 1000 };
  const env = toolEnvironment(environment, config.env ?? defaults.env);
  const declined = config.cancellation_response ?? defaults.cancellation_response;
  const jp: JpTool = {
    options: { ...defaults.options, ...config.options },
    questions: { ...defaults.questions, ...config.questions },
    access: config.access ?? defaults.access,
    root: environment.workspace,
    workspaceId: environment.invocation?.workspaceId ?? "",
    conversationId: environment.invocation?.conversationId ?? "",
  };
  return {
    name,
    description: config.summary ?? `Run ${argv[0]}`,
    definition: (given) => {
      const args = withParameterDefaults(given, parameters);
      const filled = argv.map((a) => fillTemplate(a, args, scopeOf(name, args, jp, null)));
      return [
        `runs: ${JSON.stringify(filled)} (no shell)`,
        ...(filled.some((a, i) => a !== argv[i]) ? [`configured as: ${JSON.stringify(argv)}`] : []),
        ...(injection ? [`always asked for: ${injection}`] : []),
        ...(environment.fromConversation?.has(name)
          ? ["defined by this conversation's recorded config, not by your own files: it is always asked for"]
          : []),
      ].join("\n");
    },
    parameters,
    source: "local",
    run: downgraded ? "ask" : configuredRun,
    enable: resolveEnable(config.enable, defaults.enable),
    ...(declined === undefined ? {} : { declined }),
    ...(downgraded ? { warning: `tool ${name} is asked for though run = "unattended": ${injection}` } : {}),
    validate: (args) => validate(withParameterDefaults(args, parameters)),
    execute: (args, ctx) =>
      runJpProtocol(name, argv, withParameterDefaults(args, parameters), ctx, { env, ...limits }, jp),
  };
}

/** What of a tool's config and its caller a JP tool is handed in {{context}} and {{tool}}. */
interface JpTool {
  options: Record<string, unknown>;
  questions: NonNullable<ToolConfig["questions"]>;
  access: ToolConfig["access"];
  root: string;
  workspaceId: string;
  conversationId: string;
}

/** What JP's templates see for a call of `name` with `args`, with the answers given so far. */
function scopeOf(
  name: string,
  args: Record<string, unknown>,
  jp: JpTool,
  access: AccessPolicy | null,
  answers: Record<string, unknown> = {},
): JpScope {
  return {
    context: {
      root: jp.root,
      action: "run",
      access,
      workspace_id: jp.workspaceId,
      conversation_id: jp.conversationId,
    },
    tool: { name, arguments: args, answers: { ...answers }, options: jp.options },
  };
}

/** How many questions a tool may ask in one call before jp stops running it again. */
const MAX_QUESTIONS = 5;

/**
 * A local tool's call as JP runs one: the command, and when it prints JP's
 * Outcome, what that says; a `needs_input` question is asked at the terminal
 * (or answered by its default) and the command runs again with the answers.
 */
async function runJpProtocol(
  name: string,
  argv: readonly [string, ...string[]],
  args: Record<string, unknown>,
  ctx: ToolContext,
  options: { env: NodeJS.ProcessEnv; timeoutMs: number },
  jp: JpTool,
): Promise<ToolOutcome> {
  const { parseJpOutcome, describeJpError, answerJpQuestion } = await import("./jp-outcome.js");
  let access: AccessPolicy | null = null;
  if (jp.access) {
    const { compileAccess } = await import("./jp-access.js");
    const compiled = compileAccess(jp.access, jp.root);
    // A policy that cannot be compiled is never run without: that would widen what the tool may touch.
    if ("error" in compiled)
      return {
        content: `${name} was not run: its conversation.tools.${name}.${compiled.error}`,
        isError: true,
      };
    for (const warning of compiled.warnings) ctx.prompter?.say(`jp: ${name}: ${warning}`);
    access = compiled.policy;
  }
  const answers: Record<string, unknown> = {};
  for (let asked = 0; ; asked++) {
    const ran = await runCommand(name, argv, args, ctx, options, scopeOf(name, args, jp, access, answers));
    const outcome = ran.isError ? undefined : parseJpOutcome(ran.content);
    if (!outcome) return ran;
    if (outcome.type === "success") return { content: outcome.content, isError: false };
    if (outcome.type === "error") return { content: describeJpError(outcome), isError: true };
    const { question } = outcome;
    if (asked >= MAX_QUESTIONS)
      return {
        content: `${name} asked more than ${MAX_QUESTIONS} questions; jp stopped running it`,
        isError: true,
      };
    // An answer the config fixes (`questions.ID.answer`) is given without asking, as JP does.
    const fixed = jp.questions[question.id]?.answer;
    const answer = fixed !== undefined ? fixed : await answerJpQuestion(question, ctx.prompter);
    if (answer === undefined)
      return {
        content: `${name} needs an answer to "${question.text}" and no one was there to give it`,
        isError: true,
      };
    answers[question.id] = answer;
  }
}

/** One run of a local tool's command, with the arguments filled in, as a tool outcome. */
async function runCommand(
  name: string,
  argv: readonly [string, ...string[]],
  args: Record<string, unknown>,
  ctx: ToolContext,
  options: { env: NodeJS.ProcessEnv; timeoutMs: number },
  scope?: JpScope,
): Promise<ToolOutcome> {
  const { execa } = await import("execa");
  const { spawn } = await import("node:child_process");
  const program = fillTemplate(argv[0], args, scope);
  const rest = argv.slice(1).map((a) => fillTemplate(a, args, scope));
  // Its own process group: jp ends the tool with whatever it started, and the
  // terminal's Ctrl-C reaches jp, which ends the tool, not the tool alone.
  const subprocess = execa(program, rest, {
    input: JSON.stringify(args),
    cwd: ctx.cwd,
    timeout: options.timeoutMs,
    cancelSignal: ctx.signal,
    env: options.env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    // The log keeps the output whole up to its limit; a tool that writes far more is stopped.
    maxBuffer: RECORDED_OUTPUT_BYTES + 1024,
    detached: true,
  });
  const ended = endedWithJp(subprocess.pid, ctx.signal, spawn);
  if (ctx.output)
    for (const stream of [subprocess.stdout, subprocess.stderr]) showAsItComes(stream, ctx.output);
  const result = await subprocess.finally(() => {
    ended.dispose();
  });
  if (result.timedOut) return cutShort(result.stdout, `${name} timed out after ${options.timeoutMs / 1000}s`);
  // A tool ended by a signal jp did not send (someone's kill) may die just before jp's own
  // handler aborts the turn: give that abort a moment, so the turn ends instead of asking the model again.
  if (result.signal === "SIGINT" || result.signal === "SIGTERM") await abortedWithin(ctx.signal, 1000);
  if (result.isCanceled || ctx.signal.aborted) return cutShort(result.stdout, "interrupted");
  if (result.isMaxBuffer)
    return {
      content: `${truncateOutput(result.stdout, RECORDED_OUTPUT_BYTES)}\n[${name} wrote more than ${RECORDED_OUTPUT_BYTES / 1024 / 1024} MiB: jp stopped it there]`,
      isError: true,
    };
  if (result.failed && result.exitCode === undefined) {
    return { content: `${name} could not run ${program}: ${result.shortMessage}`, isError: true };
  }
  if (result.exitCode !== 0) {
    const stderr = result.stderr.trim();
    return {
      content: truncateOutput(
        `exit code ${result.exitCode}${stderr ? `\n${stderr}` : ""}`,
        RECORDED_OUTPUT_BYTES,
      ),
      isError: true,
    };
  }
  return { content: truncateOutput(result.stdout, RECORDED_OUTPUT_BYTES), isError: false };
}

/** A run ended before the tool finished: the output it wrote until then is the result, marked as cut short. */
function cutShort(stdout: string | undefined, why: string): ToolOutcome {
  if (!stdout) return { content: why, isError: true };
  const kept = truncateOutput(stdout, RECORDED_OUTPUT_BYTES);
  return {
    content: `${kept}${kept.endsWith("\n") ? "" : "\n"}[${why}: the output above is what it wrote until then]`,
    isError: true,
  };
}

/** Hands a child's output to `show` as it arrives, whole characters only. */
function showAsItComes(stream: NodeJS.ReadableStream | null, show: (chunk: string) => void): void {
  const decoder = new TextDecoder();
  stream?.on("data", (bytes: Uint8Array) => {
    show(decoder.decode(bytes, { stream: true }));
  });
}

/** Resolves when `signal` aborts or after `ms`, whichever comes first. */
function abortedWithin(signal: AbortSignal | undefined, ms: number): Promise<void> {
  if (!signal || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
