// Any interruption leaves a conversation the next `jp q` can continue: kill
// bin/jp with SIGKILL, SIGTERM or SIGHUP while a tool runs, at varying
// moments, then ask again and check the request the provider receives.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkProviderView, describeViewProblem, project } from "../../src/compaction/index.js";
import { INTERRUPTED_TOOL_CALL } from "../../src/events/index.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  if (w) fs.rmSync(w.root, { recursive: true, force: true });
  w = undefined;
});

const sleepTool = `[conversation.tools.wait]\nsource = "local"\nsummary = "wait"\ncommand = ["sleep", "30"]\nrun = "unattended"\n`;

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A workspace whose model calls `wait`, a tool that sleeps for 30 s. */
function sleepingWorkspace(): Promise<QWorkspace> {
  return qWorkspace({
    extraConfig: sleepTool,
    script: [{ text: "Waiting.", tool_calls: [{ id: "toolu_wait", name: "wait", arguments: {} }] }],
  });
}

/** `jp q` started in `q`, once it is inside the tool. */
async function startInTool(q: QWorkspace) {
  const child = execa(JP, ["q", "-n", "please wait"], {
    cwd: q.root,
    env: q.env,
    reject: false,
    stdin: "ignore",
  });
  await until(() => q.events().some((e) => e.type === "tool_call_request"));
  return { child };
}

type Message = {
  role: string;
  content: string | { type: string; text?: string; id?: string; tool_use_id?: string }[];
};

describe("interrupted while a tool runs", () => {
  const trials = (["SIGKILL", "SIGTERM", "SIGHUP"] as const).flatMap((signal) =>
    [0, 50, 100, 150, 250, 400, 600].map((delay) => [signal, delay] as const),
  );
  it.each(trials)(
    "%s %d ms into the tool: the next jp q continues with a valid request",
    async (signal, delay) => {
      w = await sleepingWorkspace();
      const { child } = await startInTool(w);
      await new Promise((r) => setTimeout(r, delay));
      child.kill(signal);
      const ended = await child;
      expect(ended.signal ?? ended.exitCode).toBe(signal === "SIGKILL" ? "SIGKILL" : 130);

      w.mock.push({ text: "Carrying on." });
      const next = await w.jp("q", "what now?");
      expect(next.stderr).not.toContain("error");
      expect(next.code).toBe(0);
      const response = w.events().find((e) => e.type === "tool_call_response");
      expect(response).toMatchObject({
        id: "toolu_wait",
        is_error: true,
        content: signal === "SIGKILL" ? INTERRUPTED_TOOL_CALL : "interrupted",
      });
      const messages = (w.mock.requests.at(-1)!.body as { messages: Message[] }).messages;
      const texts = messages.flatMap((m) =>
        typeof m.content === "string"
          ? [m.content]
          : m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])),
      );
      expect(texts.filter((t) => t === "please wait")).toHaveLength(1);
      expect(texts.filter((t) => t === "what now?")).toHaveLength(1);
      expect(
        checkProviderView(project(w.events()).events, { lastTurnFinished: true }).map(describeViewProblem),
      ).toEqual([]);
    },
  );
});

describe("jp conversation doctor and an unanswered tool call", () => {
  it("--check exits 1; doctor answers the call by appending; then --check exits 0", async () => {
    w = await sleepingWorkspace();
    const { child } = await startInTool(w);
    child.kill("SIGKILL");
    await child;
    const before = fs.readFileSync(
      path.join(
        w.root,
        ".jp/conversations",
        fs.readdirSync(path.join(w.root, ".jp/conversations"))[0]!,
        "events.jsonl",
      ),
      "utf8",
    );

    const check = await w.jp("conversation", "doctor", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("unanswered tool call: tool call toolu_wait has no result");
    const repair = await w.jp("conversation", "doctor");
    expect(repair.code).toBe(0);
    expect(repair.stdout).toContain("answered: interrupted (appended)");
    const after = fs.readFileSync(
      path.join(
        w.root,
        ".jp/conversations",
        fs.readdirSync(path.join(w.root, ".jp/conversations"))[0]!,
        "events.jsonl",
      ),
      "utf8",
    );
    // Appended, never rewritten: the old log is a prefix of the new one.
    expect(after.startsWith(before)).toBe(true);
    expect(w.events().at(-1)).toMatchObject({ type: "tool_call_response", content: INTERRUPTED_TOOL_CALL });
    expect((await w.jp("conversation", "doctor", "--check")).code).toBe(0);
  });
});

describe("killed while waiting for the first answer", () => {
  it("the next jp q marks the unanswered question failed and does not send it again", async () => {
    w = await qWorkspace({ script: [{ text: "too late", delay_first_byte_ms: 30_000 }] });
    const child = execa(JP, ["q", "-n", "a question that never got an answer"], {
      cwd: w.root,
      env: w.env,
      reject: false,
      stdin: "ignore",
    });
    await until(() => w!.mock.requests.length === 1);
    child.kill("SIGKILL");
    await child;
    w.mock.queue.length = 0;
    w.mock.push({ text: "Carrying on." });
    const next = await w.jp("q", "a new question");
    expect(next.code).toBe(0);
    expect(next.stderr).toContain("the previous question got no answer (interrupted)");
    const sent = JSON.stringify(w.mock.requests.at(-1)!.body);
    expect(sent).not.toContain("a question that never got an answer");
    expect(sent).toContain("a new question");
    expect(w.events().some((e) => e.type === "request_failed")).toBe(true);
  });
});
