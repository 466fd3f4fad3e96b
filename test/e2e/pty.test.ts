// The real bin/jp in a pseudo-terminal: approval prompts and Ctrl-C.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScript } from "../support/mock-llm.js";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { screenRows } from "../support/screen.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT, runCli, tempDir } from "../support/workspace.js";
import { arrayContaining, objectContaining, stringContaining } from "../support/matchers.js";

const JP = path.join(REPO_ROOT, "bin/jp");
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

type Body = {
  messages: {
    role: string;
    content: { type: string; content?: string; input?: unknown; is_error?: boolean }[];
  }[];
};
const lastToolResult = (n: number) =>
  (w!.mock.requests[n]!.body as unknown as Body).messages.at(-1)!.content[0]!;

/** `jp q QUERY` in a pseudo-terminal, in the current workspace. */
const jpQ = (query: string, env: Record<string, string> = {}) =>
  runInPty([JP, "q", query], { cwd: w!.root, env: { ...w!.env, ...env } });

describe.skipIf(!PTY_AVAILABLE)("approval prompt in a terminal", () => {
  it("runs the tool on y, and the second request carries its result", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    const session = jpQ("How many words are in notes.txt?");
    await session.waitFor("Run tool count_words? [y,Y,n,N,p,r,e,?]");
    // A single key answers: no Enter.
    session.type("y");
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain("notes.txt has 5 words.");
    expect(lastToolResult(1)).toMatchObject({ type: "tool_result", content: "5\n", is_error: false });

    // A second turn: its request carries the whole first turn.
    w.mock.push(...loadScript("second-turn"));
    const second = jpQ("What did I ask?");
    expect(await second.exit).toBe(0);
    const sent = JSON.stringify(w.mock.requests[2]!.body);
    expect(sent).toContain("How many words are in notes.txt?");
    expect(sent).toContain('"tool_use_id":"toolu_count_1"');
    expect(sent).toContain("notes.txt has 5 words.");
  });

  it("declines on n, and the model is told", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    const session = jpQ("count");
    await session.waitFor("Run tool count_words?");
    session.type("?");
    await session.waitFor("edit the arguments as JSON");
    session.type("n");
    expect(await session.exit).toBe(0);
    expect(lastToolResult(1)).toMatchObject({
      content: "the user declined to run this tool call",
      is_error: true,
    });
  });

  it("declines on Ctrl-D, the model is told, and the next jp q works", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    const session = jpQ("count");
    await session.waitFor("Run tool count_words?");
    session.type("\x04");
    expect(await session.exit).toBe(0);
    expect(session.output()).not.toContain("internal error");
    expect(lastToolResult(1)).toMatchObject({
      content: "the user declined to run this tool call",
      is_error: true,
    });
    w.mock.push(...loadScript("second-turn"));
    expect((await runCli(["q", "again"], { cwd: w.root, env: w.env })).code).toBe(0);
  });

  it("Y runs every call of the tool in this turn after one answer; the next turn asks again", async () => {
    const twoCalls = [
      {
        text: "First.",
        tool_calls: [{ id: "toolu_a", name: "count_words", arguments: { path: "notes.txt" } }],
      },
      {
        text: "Again.",
        tool_calls: [{ id: "toolu_b", name: "count_words", arguments: { path: "notes.txt" } }],
      },
      { text: "Both counted." },
    ];
    w = await qWorkspace({ toolRun: "ask", script: [...twoCalls, ...loadScript("tool-then-answer")] });
    const session = jpQ("count twice");
    await session.waitFor("Run tool count_words?");
    session.type("Y");
    expect(await session.exit).toBe(0);
    // Each answered question is drawn once more with its answer: one answer, one question.
    expect(session.output().match(/Run tool count_words\? \[[^\]]*\] \S/g)).toEqual([
      "Run tool count_words? [y,Y,n,N,p,r,e,?] Y",
    ]);
    expect(lastToolResult(1)).toMatchObject({ content: "5\n", is_error: false });
    expect(lastToolResult(2)).toMatchObject({ content: "5\n", is_error: false });

    const next = jpQ("count again");
    await next.waitFor("Run tool count_words?");
    next.type("n");
    expect(await next.exit).toBe(0);
    expect(lastToolResult(4)).toMatchObject({ is_error: true });
  });

  it("r declines with a typed reason, which the model receives", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    const session = jpQ("count");
    await session.waitFor("Run tool count_words?");
    session.type("r");
    await session.waitFor("Reason (sent to the assistant):");
    session.type("the file is stale\r");
    expect(await session.exit).toBe(0);
    expect(lastToolResult(1)).toMatchObject({
      content: "the user declined to run this tool call: the file is stale",
      is_error: true,
    });
  });

  it("edits the arguments with e in $EDITOR, reopening on invalid JSON", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    fs.writeFileSync(path.join(w.root, "other.txt"), "just three words\n");
    // An editor that first writes broken JSON, then (seeing the error) the fixed arguments.
    const editor = path.join(tempDir(), "editor.sh");
    fs.writeFileSync(
      editor,
      `#!/bin/sh\nif grep -q 'invalid JSON' "$1"; then printf '{"path": "other.txt"}' > "$1"; else printf '{"path": ' > "$1"; fi\n`,
      { mode: 0o755 },
    );
    const session = jpQ("count", { EDITOR: editor });
    await session.waitFor("Run tool count_words?");
    session.type("e");
    const after = await session.waitFor('"other.txt"');
    await session.waitFor("Run tool count_words?", after);
    session.type("y");
    expect(await session.exit).toBe(0);
    expect(lastToolResult(1)).toMatchObject({ content: "3\n", is_error: false });
    // What ran is what the log, the next request and print say ran; the model's proposal is kept beside it.
    const call = w.events().find((e) => e.type === "tool_call_request");
    expect(call).toMatchObject({
      arguments: { path: "other.txt" },
      metadata: { edited_arguments: { proposed: { path: "notes.txt" }, edited_by: "user" } },
    });
    const sent = (w.mock.requests[1]!.body as unknown as Body).messages.at(-2)!.content;
    expect(sent).toContainEqual(objectContaining({ type: "tool_use", input: { path: "other.txt" } }));
    const printed = await runCli(["conversation", "print"], { cwd: w.root, env: w.env });
    expect(printed.stdout).toMatch(
      /tool call count_words \S+ \(arguments edited by user\)\n\s+\{\n\s+"path": "other.txt"\n\s+\}\n\s+the model proposed:\n\s+\{\n\s+"path": "notes.txt"/,
    );
  });
});

describe.skipIf(!PTY_AVAILABLE)('run = "edit"', () => {
  it("records the edited arguments as the call's, and tells the model the result of what ran", async () => {
    w = await qWorkspace({ toolRun: "edit", script: loadScript("tool-then-answer") });
    fs.writeFileSync(path.join(w.root, "other.txt"), "just three words\n");
    const editor = path.join(tempDir(), "editor.sh");
    fs.writeFileSync(editor, `#!/bin/sh\nprintf '{"path": "other.txt"}' > "$1"\n`, { mode: 0o755 });
    const session = jpQ("count", { EDITOR: editor });
    await session.waitFor("Run tool count_words?");
    session.type("y");
    expect(await session.exit).toBe(0);
    const messages = (w.mock.requests[1]!.body as unknown as Body).messages;
    expect(messages.at(-2)!.content).toContainEqual(
      objectContaining({ type: "tool_use", input: { path: "other.txt" } }),
    );
    expect(lastToolResult(1)).toMatchObject({ content: "3\n", is_error: false });
    expect(w.events().find((e) => e.type === "tool_call_request")).toMatchObject({
      arguments: { path: "other.txt" },
      metadata: { edited_arguments: { proposed: { path: "notes.txt" } } },
    });
  });
});

describe.skipIf(!PTY_AVAILABLE)("choosing a conversation from a list", () => {
  it("use without an id lists the conversations, newest first, and the arrow keys and Enter choose", async () => {
    w = await qWorkspace();
    const made = async () =>
      (
        JSON.parse((await runCli(["c", "new", "--json"], { cwd: w!.root, env: w!.env })).stdout) as {
          id: string;
        }
      ).id;
    const older = await made();
    const newer = await made();
    const session = runInPty([JP, "conversation", "use"], { cwd: w.root, env: w.env });
    await session.waitFor("Use which conversation?");
    // The newest is first, and active: one step down is the older one.
    session.type("\x1b[B");
    session.type("\r");
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain(`Active conversation: ${older}`);
    expect(newer).not.toBe(older);
    // Without a terminal, an id is asked for instead.
    const piped = await runCli(["c", "use"], { cwd: w.root, env: w.env });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain("give the conversation's id");
  });

  it("tells conversations of one title apart: date, turns, the model that answered and the last question", async () => {
    w = await qWorkspace({ script: [{ text: "a monad is…" }, { text: "fixed" }] });
    for (const question of ["what is a monad", "fix the CSV parser"])
      expect((await w.jp("q", "-n", "--title", "say hello", question)).code).toBe(0);
    const session = runInPty([JP, "conversation", "use"], {
      cwd: w.root,
      env: w.env,
      size: { columns: 140, rows: 30 },
    });
    await session.waitFor("fix the CSV parser");
    session.type("\u0003");
    await session.exit;
    const rows = await screenRows([{ data: session.output(), columns: 140, rows: 30 }]);
    const model = /claude[\w.-]*|gpt[\w.-]*/.source;
    const today = new Date().toISOString().slice(0, 10);
    for (const question of ["fix the CSV parser", "what is a monad"])
      expect(rows.join("\n")).toMatch(
        new RegExp(`\\d{11}.*${today} \\d\\d:\\d\\d  1 turn\\s+${model}  say hello · ${question}`),
      );
  });

  it("show and print without an id and no active conversation offer the list; Ctrl-C leaves it", async () => {
    w = await qWorkspace();
    const { id } = JSON.parse((await runCli(["c", "new", "--json"], { cwd: w.root, env: w.env })).stdout) as {
      id: string;
    };
    fs.rmSync(path.join(w.root, ".jp/state.json"), { force: true });
    const shown = runInPty([JP, "conversation", "show"], { cwd: w.root, env: w.env });
    await shown.waitFor("Show which conversation?");
    shown.type("\r");
    expect(await shown.exit).toBe(0);
    expect(shown.output()).toContain(id);
    expect(shown.output()).toContain("turns:");
    const left = runInPty([JP, "conversation", "print"], { cwd: w.root, env: w.env });
    await left.waitFor("Print which conversation?");
    left.type("\x03");
    expect(await left.exit).toBe(0);
    expect(left.output()).toContain("nothing chosen");
  });
});

describe.skipIf(!PTY_AVAILABLE)("JP's ? keyword", () => {
  it("opens the list where a conversation is named, even with one active (jp c s ?)", async () => {
    w = await qWorkspace();
    const made = async (title: string) =>
      (
        JSON.parse(
          (await runCli(["c", "new", "--title", title, "--json"], { cwd: w!.root, env: w!.env })).stdout,
        ) as { id: string }
      ).id;
    const older = await made("the older one");
    await made("the newer one");
    const session = runInPty([JP, "c", "s", "?"], { cwd: w.root, env: w.env });
    await session.waitFor("Choose a conversation");
    session.type("\x1b[B");
    session.type("\r");
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain("the older one");
    expect(session.output()).toContain(older);
    // Without a terminal, ? says what it needs.
    const piped = await runCli(["c", "s", "?"], { cwd: w.root, env: w.env });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain("`?` chooses from a list, which needs a terminal");
  });
});

describe.skipIf(!PTY_AVAILABLE)("piped input", () => {
  it("still asks for approval at the terminal (git diff | jp q …)", async () => {
    w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
    const session = runInPty(["sh", "-c", `echo 'the diff' | "${JP}" q 'review this'`], {
      cwd: w.root,
      env: w.env,
    });
    await session.waitFor("Run tool count_words?");
    session.type("y");
    expect(await session.exit).toBe(0);
    expect(session.output()).not.toContain("no terminal to ask on");
    expect(lastToolResult(1)).toMatchObject({ content: "5\n", is_error: false });
    expect((w.mock.requests[0]!.body as unknown as Body).messages[0]!.content).toEqual(
      arrayContaining([objectContaining({ text: stringContaining("the diff") })]),
    );
  });

  it("reads a file given as stdin whole, and asks the words alone with stdin from /dev/null", async () => {
    w = await qWorkspace({ script: [{ text: "first" }, { text: "second" }] });
    const file = path.join(tempDir(), "question.txt");
    fs.writeFileSync(file, "the file's text\n");
    for (const from of [file, "/dev/null"]) {
      const session = runInPty(["sh", "-c", `"${JP}" q 'read this' < "${from}"`], {
        cwd: w.root,
        env: w.env,
      });
      expect(await session.exit).toBe(0);
    }
    expect(w.events().filter((e) => e.type === "chat_request")).toMatchObject([
      { content: "read this\n\nthe file's text\n" },
      { content: "read this" },
    ]);
  });
});

describe.skipIf(!PTY_AVAILABLE)("leaving the editor without an edit", () => {
  it.each([
    ["exits with an error (vi's :cq)", "false"],
    ["leaves the buffer unchanged", "true"],
  ])(
    "at the approval prompt, when it %s, goes back to the prompt with the arguments as they were",
    async (_how, editor) => {
      w = await qWorkspace({ toolRun: "ask", script: loadScript("tool-then-answer") });
      const session = jpQ("count", { EDITOR: editor });
      await session.waitFor("Run tool count_words?");
      session.type("e");
      const after = await session.waitFor("edit cancelled; the arguments are as they were");
      await session.waitFor("Run tool count_words?", after);
      session.type("y");
      expect(await session.exit).toBe(0);
      expect(session.output()).not.toContain("internal error");
      expect(lastToolResult(1)).toMatchObject({ content: "5\n", is_error: false });
    },
  );

  it("jp q with no words on a terminal opens the editor, as -e does", async () => {
    w = await qWorkspace({ script: [{ text: "answered" }] });
    const editor = path.join(tempDir(), "editor.sh");
    fs.writeFileSync(editor, `#!/bin/sh\nprintf 'question from the editor' > "$1"\n`, { mode: 0o755 });
    const session = runInPty([JP, "q", "-n"], { cwd: w.root, env: { ...w.env, EDITOR: editor } });
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain("answered");
    expect(w.events().find((e) => e.type === "chat_request")).toMatchObject({
      content: "question from the editor",
    });
  });

  it("jp q -e asks nothing and says so when the editor exits with an error or an empty buffer", async () => {
    w = await qWorkspace({ script: [{ text: "never sent" }] });
    for (const editor of ["false", "true"]) {
      const result = await runCli(["q", "-e"], { cwd: w.root, env: { ...w.env, EDITOR: editor } });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("nothing was asked");
    }
    expect(w.mock.requests).toHaveLength(0);
  });
});

describe.skipIf(!PTY_AVAILABLE)("Ctrl-C", () => {
  it("at the approval prompt answers the call as interrupted and exits 130", async () => {
    w = await qWorkspace({
      toolRun: "ask",
      script: [...loadScript("tool-then-answer"), ...loadScript("second-turn")],
    });
    const session = jpQ("count");
    await session.waitFor("Run tool count_words?");
    session.type("\x03");
    expect(await session.exit).toBe(130);
    expect(w.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      id: "toolu_count_1",
      content: "interrupted",
      is_error: true,
    });
    expect((await runCli(["q", "again"], { cwd: w.root, env: w.env })).code).toBe(0);
  });

  it("mid-stream keeps what arrived, exits 130, and leaves a valid conversation that resumes", async () => {
    const long =
      "This is a long answer that streams slowly, word by word, so that it can be interrupted. ".repeat(6);
    w = await qWorkspace({ script: [{ text: long, event_delay_ms: 60 }, ...loadScript("second-turn")] });
    const session = jpQ("tell me a long story");
    await session.waitFor("streams slowly");
    session.type("\x03");
    expect(await session.exit).toBe(130);
    const events = w.events();
    const partial = events.find((e) => e.type === "chat_response");
    expect(partial).toMatchObject({ metadata: { interrupted: true } });
    expect(String(partial!.message)).toContain("This is a long answer");
    expect(String(partial!.message).length).toBeLessThan(long.length);
    const doctor = await runCli(["c", "doctor"], { cwd: w.root, env: w.env });
    expect(doctor.stdout).toMatch(/: ok\n$/);
    const next = await runCli(["q", "go on"], { cwd: w.root, env: w.env });
    expect(next.code).toBe(0);
    expect(JSON.stringify(w.mock.requests[1]!.body)).toContain("This is a long answer");
  });

  it("mid-stream draws what arrived before the notice, and no piece of the answer after it", async () => {
    // No newline for a long while: the markdown view holds the line's last words until it ends.
    const long = "word ".repeat(400);
    w = await qWorkspace({ script: [{ text: long, event_delay_ms: 20, text_piece: 7 }] });
    const session = jpQ("tell me a long story");
    await session.waitFor("word word word word");
    session.type("\x03");
    expect(await session.exit).toBe(130);
    const output = session.output();
    const notice = output.indexOf("interrupted; keeping what arrived");
    expect(notice).toBeGreaterThan(-1);
    // After it: the usage line and the error, and not even a piece of a word ("w", "wor").
    // eslint-disable-next-line no-control-regex -- colours are taken out to read the words
    const after = output.slice(notice).replace(/\u001b\[[0-9;]*m/g, "");
    expect(after).not.toMatch(/(^|\s)w(o|or|ord)?(\s|$)/m);
    // What was drawn is what was kept (less the last piece, which arrived as the turn stopped).
    const kept = String(w.events().find((e) => e.type === "chat_response")!.message);
    const drawn = output.slice(0, notice).match(/word/g)?.length ?? 0;
    expect(drawn).toBeGreaterThanOrEqual(kept.match(/word/g)!.length - 2);
  });

  it("during a tool call answers it with an interrupted error so the stream stays valid", async () => {
    w = await qWorkspace({
      toolRun: "unattended",
      extraConfig: `[conversation.tools.wait]\nsource = "local"\nsummary = "wait"\ncommand = ["sleep", "30"]\nrun = "unattended"\n`,
      script: [
        { text: "Waiting.", tool_calls: [{ id: "toolu_wait", name: "wait", arguments: {} }] },
        ...loadScript("second-turn"),
      ],
    });
    const session = jpQ("wait");
    await session.waitFor(/⚙\S* \S*wait/);
    // Let the tool start before interrupting it.
    await new Promise((r) => setTimeout(r, 500));
    session.type("\x03");
    expect(await session.exit).toBe(130);
    const response = w.events().find((e) => e.type === "tool_call_response");
    expect(response).toMatchObject({ id: "toolu_wait", content: "interrupted", is_error: true });
    expect((await runCli(["q", "again"], { cwd: w.root, env: w.env })).code).toBe(0);
  });
});

/** A local tool that writes a numbered step every 0.3 s. */
const slowBuild = (steps: number, timeoutSecs = 60) =>
  `[conversation.tools.slow_build]\nsource = "local"\nsummary = "build"\ncommand = ["sh", "-c", "for i in $(seq 1 ${steps}); do echo step $i; sleep 0.3; done"]\nrun = "unattended"\ntimeout_secs = ${timeoutSecs}\n`;
const callSlowBuild = {
  text: "Building.",
  tool_calls: [{ id: "toolu_build", name: "slow_build", arguments: {} }],
};

describe.skipIf(!PTY_AVAILABLE)("a long local tool", () => {
  it("shows its elapsed time and its last lines as they come, in an area erased when it ends", async () => {
    w = await qWorkspace({ extraConfig: slowBuild(8), script: [callSlowBuild, { text: "Built." }] });
    const session = jpQ("build it");
    // While it runs: the elapsed time (a loaded machine may draw 2s first), and the output's tail,
    // before any result line.
    const shown = await session.waitFor(/⏱ \d+s · slow_build is running/);
    await session.waitFor("│ step 5", shown);
    expect(session.output()).not.toContain("✓");
    expect(await session.exit).toBe(0);
    const output = session.output();
    // Bounded: the area never holds more than its five last lines, each redraw erasing the one before.
    // eslint-disable-next-line no-control-regex -- the redraw is made of escape sequences
    const redraws = [...output.matchAll(/\u001b\[(\d+)F\u001b\[J/g)].map((m) => Number(m[1]));
    expect(redraws.length).toBeGreaterThan(1);
    expect(Math.max(...redraws)).toBeLessThanOrEqual(6);
    expect(output).toMatch(/⏱ slow_build ran [2-9]s/);
    expect(lastToolResult(1)).toMatchObject({ content: stringContaining("step 8"), is_error: false });
  });

  /** A tool that writes five lines of 300 CJK characters (600 columns each), then waits `secs`. */
  const wideTool = (secs: number) =>
    `[conversation.tools.wide]\nsource = "local"\nsummary = "wide"\ncommand = ["node", "-e", "for (let i = 0; i < 5; i++) console.log(String(i) + '中'.repeat(300)); setTimeout(() => {}, ${secs * 1000})"]\nrun = "unattended"\n`;
  const callWide = { text: "Running.", tool_calls: [{ id: "toolu_wide", name: "wide", arguments: {} }] };

  it("leaves a clean screen after lines wider than the terminal and a resize while it runs", async () => {
    w = await qWorkspace({ extraConfig: wideTool(3), script: [callWide, { text: "Done." }] });
    const size = { columns: 100, rows: 30 };
    const session = runInPty([JP, "q", "go"], { cwd: w.root, env: w.env, size });
    const shown = await session.waitFor(/⏱ \d+s · wide is running/);
    await session.waitFor("│ 4中", shown);
    // Between two ticks of the clock, the window is made narrower: the terminal reflows what it shows.
    await new Promise((r) => setTimeout(r, 200));
    const resizedAt = session.resize(40, 30);
    expect(await session.exit).toBe(0);
    const output = session.output();
    const rows = await screenRows([
      { data: output.slice(0, resizedAt), ...size },
      { data: output.slice(resizedAt), columns: 40, rows: 30 },
    ]);
    const screen = rows.join("\n");
    // Nothing of the area is left: no clock, no tail row, no piece of a wide line (the result's
    // one line shows only the first, "0中…").
    expect(screen).not.toContain("is running");
    expect(screen).not.toContain("│");
    for (const line of ["1中", "2中", "3中", "4中"]) expect(screen).not.toContain(line);
    // And nothing above it was erased: the call line is followed by what came after the area.
    const call = rows.findIndex((r) => r.includes("⚙ wide"));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(rows[call + 1]).toMatch(/⏱ wide ran [3-9]s/);
    expect(screen).toContain("Done.");
  });

  it("erases the area on Ctrl-C before the notice, leaving no stale row", async () => {
    w = await qWorkspace({
      extraConfig: wideTool(30),
      script: [callWide, ...loadScript("second-turn")],
    });
    const size = { columns: 100, rows: 30 };
    const session = runInPty([JP, "q", "go"], { cwd: w.root, env: w.env, size });
    const shown = await session.waitFor(/⏱ \d+s · wide is running/);
    await session.waitFor("│ 4中", shown);
    session.type("\x03");
    await session.waitFor("interrupted; keeping what arrived", shown);
    session.type("\x03");
    await session.exit;
    const screen = (await screenRows([{ data: session.output(), ...size }])).join("\n");
    expect(screen).toContain("interrupted; keeping what arrived");
    expect(screen).not.toContain("is running");
    expect(screen).not.toContain("│");
  });

  it("keeps the output so far as the result when Ctrl-C stops it, marked interrupted", async () => {
    w = await qWorkspace({
      extraConfig: slowBuild(40),
      script: [callSlowBuild, ...loadScript("second-turn")],
    });
    const session = jpQ("build it");
    await session.waitFor("│ step 4");
    session.type("\x03");
    expect(await session.exit).toBe(130);
    const response = w.events().find((e) => e.type === "tool_call_response");
    expect(response).toMatchObject({ id: "toolu_build", is_error: true });
    expect(response!.content).toMatch(
      /^step 1\nstep 2\nstep 3\nstep 4\n(step \d+\n)*\[interrupted: the output above is what it wrote until then\]$/,
    );
  });
});

describe("a local tool that times out", () => {
  it("keeps the output it wrote until then as the result, marked timed out", async () => {
    w = await qWorkspace({ extraConfig: slowBuild(40, 1), script: [callSlowBuild, { text: "Too slow." }] });
    const result = await w.jp("q", "-n", "build it");
    expect(result.code).toBe(0);
    const sent = lastToolResult(1);
    expect(sent).toMatchObject({ is_error: true });
    expect(sent.content).toMatch(
      /^step 1\nstep 2\n(step \d+\n)*\[slow_build timed out after 1s: the output above is what it wrote until then\]$/,
    );
  });
});

describe.skipIf(!PTY_AVAILABLE)("long work shows how far it is", () => {
  it("imports a large JP conversation with a progress line in megabytes and per cent", async () => {
    const root = tempDir();
    const source = path.join(root, "17000000000-large");
    fs.mkdirSync(source);
    // About 230 MB of turns: long enough that the progress line (shown after a second) appears
    // on an idle machine too (120 MB were imported in 1.2 s).
    const text = "the parser splits each line on commas and quotes the fields it keeps ".repeat(40);
    const turn = (i: number) =>
      `${JSON.stringify({ type: "chat_request", timestamp: "2026-01-01 00:00:00", content: `${i} ${text}` })},${JSON.stringify({ type: "chat_response", timestamp: "2026-01-01 00:00:01", message: text })}`;
    const fd = fs.openSync(path.join(source, "events.json"), "w");
    fs.writeSync(fd, "[");
    for (let i = 0; i < 40_000; i++) fs.writeSync(fd, `${i ? "," : ""}${turn(i)}`);
    fs.writeSync(fd, "]");
    fs.closeSync(fd);
    const ws = path.join(root, "ws");
    fs.mkdirSync(path.join(ws, ".jp/conversations"), { recursive: true });
    const session = runInPty([JP, "conversation", "import", source], {
      cwd: ws,
      env: { HOME: root, PATH: process.env.PATH ?? "" },
    });
    await session.waitFor(/importing: \d+\.\d MB of 2\d\d\.\d MB \(\d+%\)/);
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain("Imported 17000000000: 80,000 events");
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe.skipIf(!PTY_AVAILABLE)("planning a compaction of a long conversation", () => {
  it("shows how many events are counted, of how many, in per cent", async () => {
    const root = tempDir();
    const dir = path.join(root, ".jp/conversations/17000000000-long");
    fs.mkdirSync(dir, { recursive: true });
    // 70 MB of distinct texts (a tokenizer remembers texts it has seen): counting takes seconds.
    const text = (i: number, kind: string) =>
      `${kind} ${i} each turn reads a file and reports what the parser does with quoted fields `.repeat(20);
    const fd = fs.openSync(path.join(dir, "events.jsonl"), "w");
    for (let i = 0; i < 10_000; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
      const events = [
        { type: "turn_start", timestamp: at },
        { type: "chat_request", timestamp: at, content: text(i, "q") },
        { type: "chat_response", timestamp: at, reasoning: text(i, "r") },
        { type: "tool_call_request", timestamp: at, id: `c${i}`, name: "read", arguments: { path: `f${i}` } },
        { type: "tool_call_response", timestamp: at, id: `c${i}`, content: text(i, "t"), is_error: false },
        { type: "chat_response", timestamp: at, message: text(i, "m") },
      ];
      fs.writeSync(fd, events.map((e) => `${JSON.stringify(e)}\n`).join(""));
    }
    fs.closeSync(fd);
    fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ created_at: "2026-01-01T00:00:00Z" }));
    const session = runInPty([JP, "conversation", "compact", "17000000000", "--dry-run"], {
      cwd: root,
      env: { HOME: root, PATH: process.env.PATH ?? "" },
    });
    // The request is counted before (60,000 events) and after (50,002): on a busy machine the line may first show in either.
    await session.waitFor(/planning and counting: [\d,]+ of (60,000|50,002) events \(\d+%\)/);
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain("Would compact turns 2–9999 (9,998 total");
    fs.rmSync(root, { recursive: true, force: true });
  });
});
