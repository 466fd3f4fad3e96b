// The turn loop through `jp q`, against the mock LLM server over real HTTP.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScript, withoutCacheMarkers } from "../../support/mock-llm.js";
import { API_KEY, qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { anyString, stringContaining } from "../../support/matchers.js";
import type { ShownConversation } from "../../support/conversation.js";

/** The events of the scripted turn that calls count_words once: reasoning, text, the call, its result, the answer. */
const TOOL_TURN = [
  "turn_start",
  "chat_request",
  "chat_response",
  "chat_response",
  "tool_call_request",
  "tool_call_response",
  "chat_response",
];

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

type Body = {
  messages: { role: string; content: unknown }[];
  tool_choice?: unknown;
  tools?: unknown[];
  system?: unknown;
};
// What the request says; its cache markers have their own tests.
const body = (n: number) => withoutCacheMarkers(w!.mock.requests[n]!.body as unknown as Body);

function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? allFiles(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

describe("jp q with Anthropic", () => {
  it("runs a tool, sends its result paired with the call, and records the whole turn", async () => {
    w = await qWorkspace({ script: loadScript("tool-then-answer") });
    const result = await w.jp("q", "How many words are in notes.txt?");
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("notes.txt has 5 words.");
    expect(w.mock.requests).toHaveLength(2);
    expect(body(0).system).toBe(
      "You are a helpful assistant working with a software developer in their project.",
    );
    expect(body(0).tools).toHaveLength(1);
    expect(body(1).messages.at(-2)).toEqual({
      role: "assistant",
      content: [
        {
          type: "thinking",
          thinking: "The user wants the word count of notes.txt; the count_words tool does that.",
          signature: "sig-count-1",
        },
        { type: "text", text: "I'll count the words in notes.txt." },
        { type: "tool_use", id: "toolu_count_1", name: "count_words", input: { path: "notes.txt" } },
      ],
    });
    expect(body(1).messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_count_1", content: "5\n", is_error: false }],
    });
    const events = w.events();
    expect(events.map((e) => e.type)).toEqual(TOOL_TURN);
    expect(events[2]).toMatchObject({
      reasoning: anyString,
      metadata: { anthropic_thinking_signature: "sig-count-1" },
    });
    expect(events[4]).toMatchObject({
      metadata: { model: "anthropic/claude-mock", usage: { input_tokens: 420, output_tokens: 38 } },
    });
    expect(events[6]).toMatchObject({ metadata: { usage: { input_tokens: 480, output_tokens: 9 } } });
  });

  it("sends the first turn in the second request, and compacted placeholders after compact --keep-last 1", async () => {
    w = await qWorkspace({
      script: [...loadScript("tool-then-answer"), ...loadScript("second-turn"), ...loadScript("second-turn")],
    });
    await w.jp("q", "How many words are in notes.txt?");
    await w.jp("q", "What did I ask?");
    const second = JSON.stringify(body(2).messages);
    expect(second).toContain("How many words are in notes.txt?");
    expect(second).toContain('"content":"5\\n"');
    const compact = await w.jp("c", "compact", "--keep-last", "1", "--keep-first", "0");
    expect(compact.stdout).toContain("Compacted turn 1");
    await w.jp("q", "And again?");
    const third = JSON.stringify(body(3).messages);
    expect(third).toContain("[compacted] count_words: success");
    expect(third).not.toContain('"content":"5\\n"');
    expect(third).not.toContain("sig-count-1");
  });

  it("records the mock's summary with compact --summarize, and the next request carries it", async () => {
    w = await qWorkspace({
      script: [
        ...loadScript("tool-then-answer"),
        ...loadScript("second-turn"),
        ...loadScript("summary"),
        ...loadScript("second-turn"),
      ],
    });
    await w.jp("q", "How many words are in notes.txt?");
    await w.jp("q", "What did I ask?");
    const compact = await w.jp("c", "compact", "-s", "--turn", "1");
    expect(compact.code).toBe(0);
    const summaryRequest = JSON.stringify(body(3));
    expect(summaryRequest).toContain("TOOL RESULT count_words: 5");
    expect(summaryRequest).not.toContain("What did I ask?");
    const shown = JSON.parse((await w.jp("c", "show", "--json")).stdout) as ShownConversation;
    expect(shown.compactions[0]?.summary).toMatchObject({
      source: "derived",
      model: "anthropic/claude-mock",
      text: stringContaining("count_words tool reported 5 words"),
    });
    await w.jp("q", "Continue");
    expect(body(4).messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: '[Summary of previous conversation: turn 1; recall {"turns":"1"} reads it]' },
      ],
    });
    expect(JSON.stringify(body(4).messages[1])).toContain("count_words tool reported 5 words");
  });

  it("records nothing when the summary is refused, cut off or empty, and says why", async () => {
    w = await qWorkspace({
      script: [
        ...loadScript("second-turn"),
        { text: "I can't help with that.", stop: "refusal" },
        { text: "Half a summ", stop: "max_tokens" },
        { text: "" },
      ],
    });
    await w.jp("q", "hello");
    const before = w.events().length;
    expect((await w.jp("c", "compact", "-s", "--turn", "1")).stderr).toContain(
      "declined to write the summary; nothing was recorded",
    );
    expect((await w.jp("c", "compact", "-s", "--turn", "1")).stderr).toContain(
      "was cut off at the token limit; nothing was recorded",
    );
    expect((await w.jp("c", "compact", "-s", "--turn", "1")).stderr).toContain(
      "returned an empty summary; nothing was recorded",
    );
    expect(w.events()).toHaveLength(before);
  });

  it("does not send a request clearly over the model's context window, says how to fit it, and --retry sends it after", async () => {
    w = await qWorkspace({ script: [{ text: "Read it." }, { text: "Short." }, { text: "Now it fits." }] });
    const big = "word ".repeat(1000);
    const refused = await w.jp("q", "-c", "assistant.model.context_window=500", big);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /jp: error: this request is about [\d,]+ tokens, more than the 500-token context window of anthropic\/\S+; it was not sent/,
    );
    expect(refused.stderr).toContain("jp conversation compact -k s:..-2");
    expect(w.mock.requests).toHaveLength(0);
    expect(w.events().at(-1)).toMatchObject({ type: "request_failed" });
    // With room enough it goes, once.
    const retried = await w.jp("q", "-c", "assistant.model.context_window=100000", "--retry");
    expect(retried.code, retried.stderr).toBe(0);
    expect(w.mock.requests).toHaveLength(1);
  });

  it("warns once, with `warning:`, when a request is only just over the window, and sends it", async () => {
    w = await qWorkspace({ script: [{ text: "Read it." }] });
    const result = await w.jp("q", "-c", "assistant.model.context_window=1200", "word ".repeat(1000));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /jp: warning: this request is about [\d,]+ tokens, more than the 1,200-token context window/,
    );
    expect(w.mock.requests).toHaveLength(1);
  });

  it("is refused even with automatic compaction on, when what it may touch is not enough", async () => {
    w = await qWorkspace({
      script: [{ text: "never" }],
      extraConfig: "[conversation.compaction.auto]\nenabled = true\nmax_tokens = 100000\n",
    });
    const result = await w.jp("q", "-c", "assistant.model.context_window=500", "word ".repeat(1000));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("automatic compaction could not bring it under the window");
    expect(w.mock.requests).toHaveLength(0);
  });

  it("survives a 429 with retry-after, a 500, a cut stream and a slow first byte", async () => {
    w = await qWorkspace({ script: loadScript("faults") });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Survived every fault.");
    expect(result.stderr).toContain(
      "anthropic is rate limiting requests (429): rate limited by the mock; retry 1",
    );
    expect(result.stderr).toContain("anthropic failed or is overloaded (500)");
    expect(result.stderr).toContain("starting it again");
    const answers = w.events().filter((e) => e.type === "chat_response");
    expect(answers.map((e) => e.message)).toEqual(["Survived every fault."]);
  });

  it("explains an auth failure in one line and keeps the request in the log", async () => {
    w = await qWorkspace({ script: [{ fault: { status: 401, message: "invalid api key" } }] });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^new conversation \d+\n/);
    expect(result.stderr.split("\n")[1]).toBe(
      "jp: error: anthropic rejected the API key (401): invalid api key",
    );
  });

  it("fails before anything is sent when the key is missing", async () => {
    w = await qWorkspace({ script: loadScript("second-turn") });
    const result = await (
      await import("../../support/workspace.js")
    ).runCli(["q", "hello"], { cwd: w.root, env: { ...w.env, MOCK_API_KEY: "" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("jp: error: no API key for anthropic: MOCK_API_KEY is not set");
    expect(w.mock.requests).toHaveLength(0);
    expect(fs.readdirSync(path.join(w.root, ".jp/conversations"))).toEqual([]);
  });

  it("declines ask tools without a terminal and tells the model", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    const result = await w.jp("q", "count");
    expect(result.stderr).toContain(
      'count_words needs approval, but there is no terminal to ask on; it was not run. To allow it without asking, set conversation.tools.count_words.run = "unattended".',
    );
    expect(body(1).messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_count_1",
          content: "count_words needs the user's approval and no one was there to give it",
          is_error: true,
        },
      ],
    });
  });

  it("forces the first call with -u, then returns tool_choice to auto; -T withholds tools", async () => {
    w = await qWorkspace({ script: [...loadScript("tool-then-answer"), ...loadScript("second-turn")] });
    await w.jp("q", "-u", "count_words", "count");
    expect(body(0).tool_choice).toEqual({ type: "tool", name: "count_words" });
    expect(body(1).tool_choice).toEqual({ type: "auto" });
    await w.jp("q", "-T", "ask again");
    expect(body(2).tools).toBeUndefined();
    expect((await w.jp("q", "-t=nope", "x")).stderr).toContain("no tool named 'nope'");
  });

  it("takes the word after -t or -T as the tool when it can be a tool's name, as JP does", async () => {
    w = await qWorkspace({
      script: [{ text: "one" }, { text: "two" }],
      extraConfig: '[conversation.tools.wait]\nsource = "local"\ncommand = ["true"]\nenable = false\n',
    });
    // -t wait offers wait (off by default) and sends only the words after it as the question.
    const first = await w.jp("q", "-T", "-t", "wait", "is it offered?");
    expect(first.code, first.stderr).toBe(0);
    expect((body(0).tools as { name: string }[]).map((t) => t.name)).toEqual(["wait"]);
    expect((body(0).messages as { content: { text: string }[] }[])[0]!.content[0]!.text).toBe(
      "is it offered?",
    );
    // -T count_words withholds that tool alone.
    const second = await w.jp("q", "-T", "count_words", "and now?");
    expect(second.code, second.stderr).toBe(0);
    const offered = (body(1).tools as { name: string }[] | undefined)?.map((t) => t.name) ?? [];
    expect(offered).not.toContain("count_words");
    expect((body(1).messages as { content: { text?: string }[] }[]).at(-1)!.content[0]!.text).toBe(
      "and now?",
    );
    expect((await w.jp("q", "-t", "nope", "x")).stderr).toContain("no tool named 'nope'");
  });

  it("writes no API key anywhere under .jp/", async () => {
    w = await qWorkspace({ script: loadScript("tool-then-answer") });
    await w.jp("q", "count");
    for (const file of allFiles(path.join(w.root, ".jp")))
      expect(fs.readFileSync(file, "utf8")).not.toContain(API_KEY);
  });

  it("reads the query from stdin when piped, after any words given", async () => {
    w = await qWorkspace({ script: [...loadScript("second-turn"), ...loadScript("second-turn")] });
    const { runCli } = await import("../../support/workspace.js");
    await runCli(["q"], { cwd: w.root, env: w.env, stdin: "piped question\n" });
    expect(w.events().find((e) => e.type === "chat_request")).toMatchObject({ content: "piped question\n" });
    await runCli(["q", "explain:"], { cwd: w.root, env: w.env, stdin: "some log output" });
    expect(
      w
        .events()
        .filter((e) => e.type === "chat_request")
        .at(-1),
    ).toMatchObject({ content: "explain:\n\nsome log output" });
    const empty = await w.jp("q");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("jp: error: nothing to ask");
  });

  it("does not record a --no-persist turn", async () => {
    w = await qWorkspace({ script: loadScript("second-turn") });
    await w.jp("c", "new");
    const result = await w.jp("q", "--no-persist", "hello");
    expect(result.stdout).toContain("You asked me");
    expect(w.events()).toEqual([]);
  });

  it("says nothing was recorded when a --no-persist question fails, and --retry is not offered", async () => {
    w = await qWorkspace({ script: [{ fault: { status: 400, message: "bad request test" } }] });
    await w.jp("c", "new");
    const result = await w.jp("q", "--no-persist", "hello");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("bad request test");
    expect(result.stderr).toContain(
      "nothing was recorded (--no-persist): to ask again, run the same command",
    );
    expect(result.stderr).not.toContain("kept in the log");
    expect(result.stderr).not.toContain("--retry");
    expect(w.events()).toEqual([]);
  });

  it("leaves nothing behind with -n --no-persist: no new conversation, the active one unchanged", async () => {
    w = await qWorkspace({ script: loadScript("second-turn") });
    const created = JSON.parse((await w.jp("c", "new", "--json")).stdout) as { id: string };
    const folders = () => fs.readdirSync(path.join(w!.root, ".jp/conversations")).sort();
    const before = folders();
    const result = await w.jp("q", "-n", "--no-persist", "hello");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("You asked me");
    expect(folders()).toEqual(before);
    const active = JSON.parse((await w.jp("c", "show", "--json")).stdout) as { id: string };
    expect(active.id).toBe(created.id);
  });
});

describe("jp q with OpenAI-compatible servers", () => {
  it("runs the same tool turn over Chat Completions", async () => {
    w = await qWorkspace({ provider: "openai", script: loadScript("tool-then-answer") });
    const result = await w.jp("q", "How many words?");
    expect(result.stdout).toContain("notes.txt has 5 words.");
    expect(body(1).messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: "I'll count the words in notes.txt.",
        // Reasoning streamed as reasoning_content goes back there (DeepSeek refuses a tool turn without it).
        reasoning_content: "The user wants the word count of notes.txt; the count_words tool does that.",
        tool_calls: [
          {
            id: "toolu_count_1",
            type: "function",
            function: { name: "count_words", arguments: '{"path":"notes.txt"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "toolu_count_1", content: "5\n" },
    ]);
  });
});

describe("usage and cost", () => {
  it("records each response's usage with cache reads, ends jp q with a usage line, and show totals it", async () => {
    const long = "the parser splits quoted fields on commas. ".repeat(150);
    w = await qWorkspace({
      route: () => ({ text: long }),
      extraConfig: `[prices.claude-mock]\ninput = 3.0\noutput = 15.0\ncache_read = 0.3\ncache_write = 3.75\n`,
    });
    // Over the 1,024 tokens a prefix needs before a provider caches it.
    const first = await w.jp("q", "-n", `Why does the parser fail? ${long}`);
    expect(first.code).toBe(0);
    const second = await w.jp("q", "And how do we fix it?");
    expect(second.code).toBe(0);
    const responses = w.events().filter((e) => e.type === "chat_response");
    const usage = responses.map((e) => (e.metadata as { usage: Record<string, number> }).usage);
    expect(usage[0]).toMatchObject({ output_tokens: 20 });
    expect(usage[0]!.cache_write_tokens).toBe(usage[0]!.input_tokens);
    // The second turn reads the whole first request back from the cache.
    expect(usage[1]!.cache_read_tokens).toBe(usage[0]!.input_tokens);
    const lastLine = second.stderr.trim().split("\n").at(-1)!;
    expect(lastLine).toMatch(
      /^anthropic\/claude-mock · in [\d.]+k? \([\d.]+k? cached\) · out 20 · ≈\$0\.\d+$/,
    );

    const show = JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as {
      usage: Record<string, number>;
      estimated_cost_usd: number;
    };
    const sum = (k: string) => usage.reduce((n, u) => n + (u[k] ?? 0), 0);
    expect(show.usage).toMatchObject({
      requests: 2,
      input_tokens: sum("input_tokens"),
      output_tokens: 40,
      cache_read_tokens: sum("cache_read_tokens"),
      cache_write_tokens: sum("cache_write_tokens"),
    });
    const fresh = sum("input_tokens") - sum("cache_read_tokens") - sum("cache_write_tokens");
    const expected =
      (fresh * 3 + sum("cache_read_tokens") * 0.3 + sum("cache_write_tokens") * 3.75 + 40 * 15) / 1e6;
    expect(show.estimated_cost_usd).toBeCloseTo(expected, 10);
    expect((await w.jp("conversation", "show")).stdout).toMatch(/usage: {7}2 requests, in /);
  });

  it("sends no cache markers with assistant.cache = false", async () => {
    w = await qWorkspace({ route: () => ({ text: "ok" }), extraConfig: `[assistant]\ncache = false\n` });
    expect((await w.jp("q", "-n", "hello")).code).toBe(0);
    expect(JSON.stringify(w.mock.requests[0]!.body)).not.toContain("cache_control");
  });
});

describe("a request that fails before any answer", () => {
  it("is kept, marked failed, never sent twice, and asked again with --retry", async () => {
    // A 400 is not retried: the first request of the turn fails outright.
    w = await qWorkspace({
      script: [{ fault: { status: 400, message: "bad request" } }, { text: "fine" }, { text: "retried" }],
    });
    const failed = await w.jp("q", "-n", "What does the parser do?");
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain("note: the question is kept in the log, marked as failed");
    expect(w.events().at(-1)).toMatchObject({ type: "request_failed", turn: 0 });
    expect((await w.jp("c", "print")).stdout).toContain("the question of turn 1 failed");

    expect((await w.jp("q", "Something else")).code).toBe(0);
    const sent = JSON.stringify(body(1).messages);
    expect(sent).not.toContain("What does the parser do?");
    expect(sent).toContain("Something else");

    expect((await w.jp("q", "--retry")).code).toBe(0);
    const retried = body(2).messages.map((m) => JSON.stringify(m.content));
    expect(retried.filter((m) => m.includes("What does the parser do?"))).toHaveLength(1);
    expect((await w.jp("q", "--retry", "extra")).stderr).toContain("give no new one with it");
    // Asked once: a second --retry sends nothing and says where it was asked again.
    const twice = await w.jp("q", "--retry");
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(
      "the failed question of turn 1 was asked again in turn 3; --retry asks once",
    );
    expect(w.mock.requests).toHaveLength(3);
    expect(
      w.events().filter((e) => e.type === "chat_request" && e.content === "What does the parser do?"),
    ).toHaveLength(2);
  });
});

describe("jp q -e", () => {
  it("asks the question given when the editor saves it unchanged; only an empty buffer or an editor error cancels", async () => {
    w = await qWorkspace({ route: () => ({ text: "4" }) });
    // `true` leaves the file as it was and exits 0: the text given is the question.
    Object.assign(w.env, { EDITOR: "true" });
    const kept = await w.jp("q", "-e", "what is 2+2?");
    expect(kept.code).toBe(0);
    expect(JSON.stringify(w.mock.requests[0]!.body)).toContain("what is 2+2?");
    // An editor that fails cancels.
    Object.assign(w.env, { EDITOR: "false" });
    const failed = await w.jp("q", "-e", "never asked");
    expect(failed.stderr).toContain("the editor was left without a question (or with an error)");
    // An emptied buffer cancels.
    const emptier = path.join(w.root, "empty-editor.sh");
    fs.writeFileSync(emptier, '#!/bin/sh\n: > "$1"\n', { mode: 0o755 });
    Object.assign(w.env, { EDITOR: emptier });
    const emptied = await w.jp("q", "-e", "also never asked");
    expect(emptied.stderr).toContain("the editor was left without a question");
    expect(w.mock.requests).toHaveLength(1);
  });
});

describe("a missing $EDITOR", () => {
  it("is one plain line naming it, not an internal error", async () => {
    w = await qWorkspace({ route: () => ({ text: "ok" }) });
    Object.assign(w.env, { EDITOR: "no-such-editor-here" });
    const result = await w.jp("q", "-e");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "jp: error: the editor 'no-such-editor-here' was not found\n  hint: set $VISUAL or $EDITOR to an editor on your PATH\n",
    );
  });
});

describe("a new conversation", () => {
  it("says its id and takes its title from the first question, cut at a word", async () => {
    w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }] });
    const question = "Why does the CSV parser in src/csv.ts fail on quoted fields that contain commas?\nmore";
    const first = await w.jp("q", "-n", question);
    expect(first.stderr).toMatch(/new conversation (\d+)/);
    const listed = JSON.parse((await w.jp("conversation", "ls", "--json")).stdout) as {
      id: string;
      title: string;
    }[];
    expect(listed[0]!.title).toBe("Why does the CSV parser in src/csv.ts fail on quoted fields…");
    expect(first.stderr).toContain(listed[0]!.id);
    expect((await w.jp("conversation", "new")).code).toBe(0);
    await w.jp("q", "short one");
    const again = JSON.parse((await w.jp("conversation", "ls", "--json")).stdout) as { title: string }[];
    expect(again.map((c) => c.title)).toContain("short one");
  });
});

describe("--id", () => {
  it("asks in that conversation and leaves the active one active", async () => {
    w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }, { text: "c" }] });
    await w.jp("q", "-n", "first");
    const first = (JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as { id: string }).id;
    await w.jp("q", "-n", "second");
    const second = (JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as { id: string }).id;
    expect((await w.jp("q", "--id", first, "third")).code).toBe(0);
    expect((JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as { id: string }).id).toBe(
      second,
    );
    expect(w.events(first).filter((e) => e.type === "chat_request")).toHaveLength(2);
  });
});

describe("jp q --json", () => {
  it("prints each event as it is recorded, one JSON object per line, and nothing else on stdout", async () => {
    w = await qWorkspace({ script: loadScript("tool-then-answer") });
    const result = await w.jp("q", "--json", "How many words are in notes.txt?");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    const printed = lines.map((line) => JSON.parse(line) as { type: string });
    expect(printed.map((e) => e.type)).toEqual(TOOL_TURN);
    // Exactly the log's events, in its order.
    expect(printed).toEqual(JSON.parse(JSON.stringify(w.events())));
    expect(result.stdout).not.toMatch(/^notes\.txt has 5 words\.$/m);
    expect(printed.at(-1)).toMatchObject({ message: "notes.txt has 5 words." });
  });
});

describe("conversation titles", () => {
  it("are the first question by default, or written by conversation.title.generate.model after the first answer", async () => {
    w = await qWorkspace({
      script: [{ text: "It splits on every comma." }, { text: '"CSV parser splits quoted commas."\n' }],
      extraConfig:
        '[providers.llm.aliases]\nsmall = "anthropic/claude-mock-small"\n[conversation.title.generate.model]\nid = "small"\n',
    });
    const result = await w.jp("q", "-n", "why does my CSV parser split quoted fields?");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'titled "CSV parser splits quoted commas" by anthropic/claude-mock-small',
    );
    expect(w.mock.requests[1]!.body.model).toBe("claude-mock-small");
    const listed = JSON.parse((await w.jp("c", "ls", "--json")).stdout) as { title: string }[];
    expect(listed.map((c) => c.title)).toEqual(["CSV parser splits quoted commas"]);
  });

  it("stay the first question, said once, when the model cannot write one", async () => {
    w = await qWorkspace({
      script: [{ text: "ok" }, { fault: { status: 400, message: "no such model" } }],
      extraConfig: '[conversation.title.generate.model]\nid = "anthropic/claude-gone"\n',
    });
    const result = await w.jp("q", "-n", "first question here");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("anthropic/claude-gone could not title the conversation");
    const listed = JSON.parse((await w.jp("c", "ls", "--json")).stdout) as { title: string }[];
    expect(listed.map((c) => c.title)).toEqual(["first question here"]);
  });
});
