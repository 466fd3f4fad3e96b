// Local command tools: arguments in placeholders and on stdin, results, errors, limits; and tool selection.
import { beforeAll, describe, expect, it } from "vitest";
import { approveCall } from "../../src/tools/approval.js";
import { buildRegistry, isMcpToolSpec, selectTools, type RegistryEntry } from "../../src/tools/registry.js";

/** A registry entry that must be a tool jp runs itself. */
function localTool(entry: RegistryEntry | undefined): Tool {
  if (!entry || isMcpToolSpec(entry)) throw new Error("expected a local tool");
  return entry;
}
import {
  createLocalTool,
  fillTemplate,
  parametersSchema,
  placeholdersInScript,
  truncateOutput,
} from "../../src/tools/local.js";
import type { Tool, ToolContext } from "../../src/tools/types.js";
import type { ToolConfig } from "../../src/config/schema.js";
import { tempDir } from "../support/workspace.js";

/** Where the tools of these tests run: jp's own environment, with no provider keys to keep from them. */
const TOOL_ENV = { env: process.env, workspace: process.cwd(), secrets: new Set<string>() };

const ctx = (): ToolContext => ({
  events: [],
  cwd: tempDir(),
  signal: new AbortController().signal,
  turn: 0,
});
const node = (script: string, ...args: string[]) => ["node", "-e", script, ...args];

describe("local tools", () => {
  it("fills {{name}} placeholders and sends the arguments as JSON on stdin, without a shell", async () => {
    const tool = await createLocalTool("echo", {
      command: node(
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(process.argv[1]+'|'+s))",
        "{{word}} $HOME;",
      ),
      parameters: { word: { type: "string", required: true } },
    });
    const outcome = await tool.execute({ word: "hi" }, ctx());
    expect(outcome).toEqual({ content: 'hi $HOME;|{"word":"hi"}\n', isError: false });
  });

  it("turns a non-zero exit into an error result with stderr", async () => {
    const tool = await createLocalTool("fail", {
      command: node("console.error('it broke'); process.exit(3)"),
    });
    expect(await tool.execute({}, ctx())).toEqual({ content: "exit code 3\nit broke", isError: true });
  });

  it("stops a tool at its timeout; keeps a long output whole (max_output_bytes is the view's), up to 10 MiB", async () => {
    const slow = await createLocalTool("slow", { command: ["sleep", "5"], timeout_secs: 0.2 });
    expect(await slow.execute({}, ctx())).toEqual({ content: "slow timed out after 0.2s", isError: true });
    const loud = await createLocalTool("loud", {
      command: node("process.stdout.write('x'.repeat(5000))"),
      max_output_bytes: 1000,
    });
    expect(await loud.execute({}, ctx())).toEqual({ content: "x".repeat(5000), isError: false });
    // A tool that writes past what the log keeps is stopped there, and says so.
    const flood = await createLocalTool("flood", {
      command: node("const b = 'y'.repeat(1 << 20); for (let i = 0; i < 12; i++) process.stdout.write(b)"),
    });
    const flooded = await flood.execute({}, ctx());
    expect(flooded.isError).toBe(true);
    expect(flooded.content.startsWith("y".repeat(1000))).toBe(true);
    expect(flooded.content).toMatch(/\[flood wrote more than 10 MiB: jp stopped it there\]$/);
    expect(Buffer.byteLength(flooded.content)).toBeLessThan(10 * 1024 * 1024 + 200);
    expect(truncateOutput("short", 10)).toBe("short");
    expect(truncateOutput("x".repeat(20), 10)).toBe(`${"x".repeat(10)}\n[… 10 more bytes cut]`);
  });

  it("reports a program that cannot start", async () => {
    const tool = await createLocalTool("ghost", { command: ["/no/such/program"] });
    const outcome = await tool.execute({}, ctx());
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain("ghost could not run /no/such/program");
  });

  it("validates arguments against the schema built from config", async () => {
    const tool = await createLocalTool("t", {
      command: ["true"],
      parameters: { path: { type: "string", required: true }, n: { type: "integer" } },
    });
    expect(tool.parameters).toEqual({
      type: "object",
      properties: { path: { type: "string" }, n: { type: "integer" } },
      required: ["path"],
      additionalProperties: false,
    });
    expect(tool.validate!({}, ctx())).toBe("missing required argument 'path'");
    expect(tool.validate!({ path: 1 }, ctx())).toBe("argument 'path' must be string, got integer");
    expect(tool.validate!({ path: "a", extra: 1 }, ctx())).toBe("unknown argument 'extra'; expected path, n");
    expect(tool.validate!({ path: "a", n: 2 }, ctx())).toBeUndefined();
    expect(tool.validate!({ path: "a", n: 1.5 }, ctx())).toBe("argument 'n' must be integer, got number");
    // The whole declared schema is checked, not a subset: an enum, say.
    const modes = await createLocalTool("m", {
      command: ["true"],
      parameters: { mode: { type: "string", enum: ["fast", "safe"], required: true } },
    });
    expect(modes.validate!({ mode: "reckless" }, ctx())).toBe(
      `argument 'mode' must be one of "fast", "safe"`,
    );
    await expect(
      createLocalTool("b", { command: ["true"], parameters: { x: { type: "bogus" } } }),
    ).rejects.toThrow(
      "conversation.tools.b.parameters is not a JSON Schema jp can check: Unsupported type: bogus",
    );
    expect(parametersSchema(undefined)).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
    expect(fillTemplate("{{ a }}-{{b}}-{{c}}", { a: 1, b: { x: 2 } })).toBe('1-{"x":2}-');
  });

  it("takes a parameter's default where the model left it out, required or not, in array items too (as JP does)", async () => {
    // JP's fs_modify_file: replace_using_regex is `required = true` with `default = false`.
    const tool = await createLocalTool("modify", {
      command: node(
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(process.argv[1]+'|'+s))",
        "{{replace_using_regex}}",
      ),
      parameters: {
        replace_using_regex: { type: "boolean", required: true, default: false },
        patterns: {
          type: "array",
          required: true,
          items: {
            type: "object",
            properties: { old: { type: "string" }, regex: { type: "boolean", default: true } },
          },
        },
      },
    });
    const args = { patterns: [{ old: "a" }, { old: "b", regex: false }] };
    expect(tool.validate!(args, ctx())).toBeUndefined();
    // A required parameter without a default is still required.
    expect(tool.validate!({ replace_using_regex: true }, ctx())).toBe("missing required argument 'patterns'");
    const outcome = await tool.execute(args, ctx());
    expect(outcome).toEqual({
      content: `false|${JSON.stringify({
        patterns: [
          { old: "a", regex: true },
          { old: "b", regex: false },
        ],
        replace_using_regex: false,
      })}\n`,
      isError: false,
    });
  });

  it("makes JP's required = true of a nested property its object's required list, as JP's to_json_schema does", async () => {
    // JP's fs_modify_file: each pattern's `old` and `new` are required.
    const tool = await createLocalTool("modify", {
      command: ["true"],
      parameters: {
        patterns: {
          type: "array",
          required: true,
          items: {
            type: "object",
            properties: { old: { type: "string", required: true }, regex: { type: "boolean" } },
          },
        },
      },
    });
    expect(tool.parameters.properties).toEqual({
      patterns: {
        type: "array",
        items: {
          type: "object",
          properties: { old: { type: "string" }, regex: { type: "boolean" } },
          required: ["old"],
        },
      },
    });
    expect(tool.validate!({ patterns: [{ regex: true }] }, ctx())).toBe(
      "missing required argument 'patterns[0].old'",
    );
    expect(tool.validate!({ patterns: [{ old: 1 }] }, ctx())).toBe(
      "argument 'patterns[0].old' must be string, got integer",
    );
    expect(tool.validate!({ patterns: [{ old: "a" }] }, ctx())).toBeUndefined();
  });

  it("requires a command", async () => {
    await expect(createLocalTool("x", { source: "local" })).rejects.toThrow(
      'tool x has source = "local" but no command',
    );
  });

  it("requires a command that names a program, not a blank one", async () => {
    for (const command of ["   ", [" "], []])
      await expect(createLocalTool("x", { source: "local", command })).rejects.toThrow(
        'tool x has source = "local" but no command',
      );
  });
});

describe("tool selection", () => {
  let built: Map<string, RegistryEntry>;
  beforeAll(async () => {
    built = await buildRegistry(
      {
        conversation: {
          tools: {
            a: { command: ["true"] },
            b: { command: ["true"], enable: false },
            c: { command: ["true"], enable: "explicit" },
            hinted: { compaction: "omit" },
          },
        },
      },
      [],
      TOOL_ENV,
    );
  });
  const registry = () => built;
  const names = (sel: { enable: boolean; name?: string }[]) =>
    selectTools(registry(), sel).map((t) => t.name);

  it("offers enabled tools by default; entries with only a hint are not tools", () => {
    expect([...registry().keys()]).toEqual(["a", "b", "c"]);
    expect(names([])).toEqual(["a"]);
  });

  it("applies -t and -T left to right; explicit tools join only when named, and a bare -T leaves them", () => {
    expect(names([{ enable: true }])).toEqual(["a", "b"]);
    expect(names([{ enable: true }, { enable: false, name: "a" }])).toEqual(["b"]);
    expect(names([{ enable: false }, { enable: true, name: "c" }])).toEqual(["c"]);
    // JP: a bulk directive flips only tools with allow_toggle = "any".
    expect(names([{ enable: true, name: "c" }, { enable: false }])).toEqual(["c"]);
    expect(() => names([{ enable: true, name: "zzz" }])).toThrow("no tool named 'zzz'");
  });
});

describe("JP's enable forms", () => {
  const selected = async (
    tools: Record<string, ToolConfig>,
    sel: { enable: boolean; name?: string }[] = [],
  ) => selectTools(await buildRegistry({ conversation: { tools } }, [], TOOL_ENV), sel).map((t) => t.name);

  it('reads "on", "off", "always" and { state, allow_toggle }, each field falling back to the * defaults', async () => {
    const tools: Record<string, ToolConfig> = {
      "*": { enable: false, run: "ask" },
      on: { command: ["true"], enable: "on" },
      off: { command: ["true"], enable: "off" },
      plain: { command: ["true"] },
      locked: { command: ["true"], enable: "always" },
      named: { command: ["true"], enable: { state: true, allow_toggle: "if_named" } },
      stateOnly: { command: ["true"], enable: { state: true } },
    };
    expect(await selected(tools)).toEqual(["on", "locked", "named", "stateOnly"]);
    // A bare -T takes only what any directive may flip.
    expect(await selected(tools, [{ enable: false }])).toEqual(["locked", "named"]);
    expect(await selected(tools, [{ enable: false }, { enable: false, name: "named" }])).toEqual(["locked"]);
    expect(await selected(tools, [{ enable: true }])).toEqual([
      "on",
      "off",
      "plain",
      "locked",
      "named",
      "stateOnly",
    ]);
  });

  it("refuses to flip a locked tool by name, as JP does", async () => {
    const tools: Record<string, ToolConfig> = {
      locked: { command: ["true"], enable: "always" },
      shut: { command: ["true"], enable: { state: false, allow_toggle: "never" } },
    };
    await expect(selected(tools, [{ enable: false, name: "locked" }])).rejects.toThrow(
      "cannot disable locked: it is configured as locked on",
    );
    await expect(selected(tools, [{ enable: true, name: "shut" }])).rejects.toThrow(
      "cannot enable shut: it is configured as locked off",
    );
    // Asking for the state it is in is no error.
    expect(await selected(tools, [{ enable: true, name: "locked" }])).toEqual(["locked"]);
  });
});

describe("p at the approval prompt", () => {
  it("shows what the tool runs, and says when only the conversation defined it", async () => {
    const registry = await buildRegistry(
      {
        conversation: {
          tools: {
            mine: { command: ["echo", "{{x}}"], run: "ask" },
            planted: { command: ["sh", "-c", "id"], run: "ask" },
          },
        },
      },
      [],
      { env: {}, workspace: "/w", secrets: new Set<string>(), fromConversation: new Set(["planted"]) },
    );
    const shown = async (name: string) => {
      const said: string[] = [];
      const answers = ["p", "n"];
      await approveCall(
        localTool(registry.get(name)),
        { x: 1 },
        { events: [], cwd: "/", signal: new AbortController().signal, turn: 0 },
        {
          interactive: true,
          say: (t: string) => void said.push(t),
          choose: () => Promise.resolve(answers.shift()!),
          ask: () => Promise.resolve(""),
          editText: (t: string) => Promise.resolve(t),
        },
      );
      return said.at(-1)!;
    };
    expect(await shown("mine")).toBe(
      '{\n  "x": 1\n}\nruns: ["echo","1"] (no shell)\nconfigured as: ["echo","{{x}}"]',
    );
    expect(await shown("planted")).toContain(
      'runs: ["sh","-c","id"] (no shell)\ndefined by this conversation\'s recorded config',
    );
  });
});

describe("answers at the approval prompt", () => {
  let tool: Tool;
  beforeAll(async () => {
    const registry = await buildRegistry(
      { conversation: { tools: { echo: { command: ["echo", "{{x}}"], run: "ask" } } } },
      [],
      { env: {}, workspace: "/w", secrets: new Set<string>() },
    );
    tool = localTool(registry.get("echo"));
  });
  const prompter = (answers: string[], typed = "") => ({
    interactive: true,
    asked: 0,
    say: () => undefined,
    choose(question: string, keys: readonly string[]) {
      this.asked += 1;
      expect(question).toBe("Run tool echo? [y,Y,n,N,p,r,e,?] ");
      expect(keys).toEqual(["y", "Y", "n", "N", "p", "r", "e", "?"]);
      return Promise.resolve(answers.shift()!);
    },
    ask: () => Promise.resolve(typed),
    editText: (t: string) => Promise.resolve(t),
  });
  const context = (remembered = new Map<string, "run" | "decline">()) => ({
    events: [],
    cwd: "/",
    signal: new AbortController().signal,
    turn: 0,
    remembered,
  });

  it("Y runs this call and every later call of the tool in the turn without asking", async () => {
    const ctx = context();
    const p = prompter(["Y"]);
    expect(await approveCall(tool, { x: 1 }, ctx, p)).toEqual({ run: true, args: { x: 1 } });
    expect(await approveCall(tool, { x: 2 }, ctx, p)).toEqual({ run: true, args: { x: 2 } });
    expect(p.asked).toBe(1);
    // A new turn starts with a new memory: it asks again.
    const next = prompter(["n"]);
    expect(await approveCall(tool, { x: 3 }, context(), next)).toMatchObject({ run: false });
    expect(next.asked).toBe(1);
  });

  it("N declines this call and later ones in the turn; y and n are remembered for nothing", async () => {
    const ctx = context();
    const p = prompter(["N"]);
    const declined = { run: false, reason: "the user declined to run this tool call" };
    expect(await approveCall(tool, { x: 1 }, ctx, p)).toEqual(declined);
    expect(await approveCall(tool, { x: 2 }, ctx, p)).toEqual(declined);
    expect(p.asked).toBe(1);
    const once = prompter(["y", "n"]);
    const fresh = context();
    expect(await approveCall(tool, { x: 1 }, fresh, once)).toMatchObject({ run: true });
    expect(await approveCall(tool, { x: 2 }, fresh, once)).toMatchObject({ run: false });
    expect(once.asked).toBe(2);
  });

  it("r declines with the reason typed, which the model receives", async () => {
    expect(await approveCall(tool, { x: 1 }, context(), prompter(["r"], "use the cached copy"))).toEqual({
      run: false,
      reason: "the user declined to run this tool call: use the cached copy",
    });
    expect(await approveCall(tool, { x: 1 }, context(), prompter(["r"], ""))).toEqual({
      run: false,
      reason: "the user declined to run this tool call",
    });
  });
});

describe("placeholders inside an interpreter's script", () => {
  it("are found after each interpreter's script flag, and nowhere else", () => {
    expect(placeholdersInScript(["sh", "-c", "grep {{pattern}} src; wc {{path}} {{pattern}}"])).toEqual({
      interpreter: "sh",
      flag: "-c",
      names: ["pattern", "path"],
    });
    expect(placeholdersInScript(["/bin/bash", "-lc", "cat {{ path }}"])?.names).toEqual(["path"]);
    expect(placeholdersInScript(["python3.12", "-c", "print('{{x}}')"])?.interpreter).toBe("python3.12");
    expect(placeholdersInScript(["node", "--eval", "console.log({{x}})"])?.flag).toBe("--eval");
    expect(placeholdersInScript(["perl", "-e", "print {{x}}"])?.names).toEqual(["x"]);
    expect(placeholdersInScript(["/usr/bin/env", "-i", "LANG=C", "bash", "-c", "ls {{dir}}"])).toEqual({
      interpreter: "bash",
      flag: "-c",
      names: ["dir"],
    });
    expect(placeholdersInScript(["env", "grep", "-c", "{{pattern}}"])).toBeUndefined();
    // As an argument of its own the value stays data.
    expect(placeholdersInScript(["sh", "-c", 'grep "$1" src', "sh", "{{pattern}}"])).toBeUndefined();
    expect(placeholdersInScript(["node", "-e", "console.log(process.argv[1])", "{{x}}"])).toBeUndefined();
    expect(placeholdersInScript(["sh", "script.sh", "{{x}}"])).toBeUndefined();
    expect(placeholdersInScript(["grep", "-c", "{{pattern}}"])).toBeUndefined();
    expect(placeholdersInScript(["sh", "-c"])).toBeUndefined();
  });

  it("make an unattended tool ask, say why when offered, and show it in the definition", async () => {
    const shout = await createLocalTool("shout", {
      command: ["sh", "-c", "echo {{text}} | tr a-z A-Z"],
      run: "unattended",
      parameters: { text: { type: "string", required: true } },
    });
    expect(shout.run).toBe("ask");
    expect(shout.warning).toMatch(
      /^tool shout is asked for though run = "unattended": it puts \{\{text\}\} into the script `sh -c` runs/,
    );
    expect(shout.definition?.({})).toContain("so the model's text would run as code");
    // Asked for anyway, or skipped, it says so in its definition only.
    for (const run of ["ask", "skip"] as const) {
      const tool = await createLocalTool("shout", { command: ["sh", "-c", "echo {{text}}"], run });
      expect(tool.run).toBe(run);
      expect(tool.warning).toBeUndefined();
      expect(tool.definition?.({})).toContain("into the script `sh -c` runs");
    }
    const safe = await createLocalTool("shout", {
      command: ["sh", "-c", 'echo "$1" | tr a-z A-Z', "sh", "{{text}}"],
      run: "unattended",
    });
    expect(safe.run).toBe("unattended");
    expect(safe.warning).toBeUndefined();
    expect(await safe.execute({ text: "hi; echo pwned" }, ctx())).toEqual({
      content: "HI; ECHO PWNED\n",
      isError: false,
    });
  });
});

describe("what a tool runs, on p", () => {
  it("is the command filled in with the call's arguments, beside the configured one", async () => {
    const tool = await createLocalTool("count", {
      command: ["wc", "-w", "{{path}}"],
      parameters: { path: { type: "string", required: true } },
    });
    const shown = tool.definition?.({ path: "notes.txt" }) ?? "";
    expect(shown).toContain('runs: ["wc","-w","notes.txt"] (no shell)');
    expect(shown).toContain('configured as: ["wc","-w","{{path}}"]');
  });
});

describe("cancellation_response", () => {
  /** What approveCall gives back when the person answers `answer` at the prompt. */
  const answered = (tool: Tool, answer: string) =>
    approveCall(
      tool,
      {},
      { events: [], cwd: "/", signal: new AbortController().signal, turn: 0 },
      {
        interactive: true,
        say: () => undefined,
        choose: () => Promise.resolve(answer),
        ask: () => Promise.resolve(""),
        editText: (t: string) => Promise.resolve(t),
      },
    );

  it("is what the model is told of a declined call: the tool's own, else the * default's, else jp's words", async () => {
    const registry = await buildRegistry(
      {
        conversation: {
          tools: {
            "*": { cancellation_response: "Rejected; ask why." },
            own: { command: ["true"], run: "ask", cancellation_response: "Not now." },
            inherits: { command: ["true"], run: "ask" },
          },
        },
      },
      [],
      { env: {}, workspace: "/w", secrets: new Set<string>() },
    );
    expect(await answered(localTool(registry.get("own")), "n")).toEqual({ run: false, reason: "Not now." });
    expect(await answered(localTool(registry.get("inherits")), "N")).toEqual({
      run: false,
      reason: "Rejected; ask why.",
    });
    const plain = await buildRegistry(
      { conversation: { tools: { t: { command: ["true"], run: "ask" } } } },
      [],
      TOOL_ENV,
    );
    expect(await answered(localTool(plain.get("t")), "n")).toEqual({
      run: false,
      reason: "the user declined to run this tool call",
    });
  });
});
