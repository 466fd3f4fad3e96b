// jp q -a: files, globs and http(s) URLs attached to the question, recorded with it in the log and sent
// as each provider takes them (checked against the official SDKs' request types): text as JP sends it,
// images and PDFs as the provider's own blocks; a kind a provider cannot take is refused before anything
// is recorded.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Attachment, Event } from "../../../src/events/index.js";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { sdkTypeErrors } from "../../support/sdk-types.js";

let w: QWorkspace | undefined;
let server: http.Server | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
  await new Promise((resolve) => {
    if (server) server.close(resolve);
    else resolve(undefined);
  });
  server = undefined;
});

// A 1×1 PNG and the smallest PDF: what is sent is their bytes, which the mock does not read.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

/** A workspace with notes.txt (from qWorkspace), shots/a.png, shots/b.png and spec.pdf. */
async function attachingWorkspace(options: Parameters<typeof qWorkspace>[0]): Promise<QWorkspace> {
  const made = await qWorkspace({ script: [{ text: "I see them." }], ...options });
  fs.mkdirSync(path.join(made.root, "shots"));
  fs.writeFileSync(path.join(made.root, "shots/a.png"), PNG);
  fs.writeFileSync(path.join(made.root, "shots/b.png"), PNG);
  fs.writeFileSync(path.join(made.root, "spec.pdf"), PDF);
  return made;
}

const question = (events: Event[]) =>
  events.find((e) => e.type === "chat_request") as Event & {
    attachments?: Attachment[];
  };

describe("jp q -a", () => {
  it("records files and a glob's files with the question and sends them to Anthropic as document and image blocks", async () => {
    w = await attachingWorkspace({});
    const asked = await w.jp(
      "q",
      "-a",
      "notes.txt",
      "-a",
      "shots/*.png",
      "-a",
      "spec.pdf",
      "what is in these?",
    );
    expect(asked.code, asked.stderr).toBe(0);
    expect(question(w.events()).attachments).toEqual([
      { source: "notes.txt", media_type: "text/plain", text: "one two three four five\n" },
      { source: "shots/a.png", media_type: "image/png", data: PNG.toString("base64") },
      { source: "shots/b.png", media_type: "image/png", data: PNG.toString("base64") },
      { source: "spec.pdf", media_type: "application/pdf", data: PDF.toString("base64") },
    ]);
    const body = w.mock.requests[0]!.body as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages.at(-1)!.content).toEqual([
      {
        type: "document",
        title: "notes.txt",
        source: { type: "text", media_type: "text/plain", data: "one two three four five\n" },
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
      {
        type: "document",
        title: "spec.pdf",
        source: { type: "base64", media_type: "application/pdf", data: PDF.toString("base64") },
      },
      expect.objectContaining({ type: "text", text: "what is in these?" }),
    ]);
    expect(sdkTypeErrors("anthropic", [body])).toEqual([]);
    const printed = await w.jp("conversation", "print");
    expect(printed.stdout).toContain("  attached: notes.txt (text/plain, 24 B)");
    expect(printed.stdout).toContain("  attached: spec.pdf (application/pdf, ");
    // The attached text is searched with the conversation.
    expect((await w.jp("conversation", "grep", "three four")).code).toBe(0);
  });

  it("sends text as JP's <documents> block and images and PDFs as Chat Completions parts", async () => {
    w = await attachingWorkspace({ provider: "openai" });
    const asked = await w.jp("q", "-a", "notes.txt", "-a", "shots/a.png", "-a", "spec.pdf", "describe");
    expect(asked.code, asked.stderr).toBe(0);
    const body = w.mock.requests[0]!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "text",
          text: "<documents>\n  <document>\n    <index>0</index>\n    <source>notes.txt</source>\n    <content>one two three four five\n</content>\n  </document>\n</documents>\n\ndescribe",
        },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
        {
          type: "file",
          file: { filename: "spec.pdf", file_data: `data:application/pdf;base64,${PDF.toString("base64")}` },
        },
      ],
    });
    expect(sdkTypeErrors("chat", [body])).toEqual([]);
  });

  it("sends images and PDFs as Responses input_image and input_file", async () => {
    w = await attachingWorkspace({ provider: "openai", api: "responses" });
    expect((await w.jp("q", "-a", "shots/a.png", "-a", "spec.pdf", "describe")).code).toBe(0);
    const body = w.mock.requests[0]!.body as { input: { role?: string; content?: unknown }[] };
    expect(body.input.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "describe" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG.toString("base64")}`, detail: "auto" },
        {
          type: "input_file",
          filename: "spec.pdf",
          file_data: `data:application/pdf;base64,${PDF.toString("base64")}`,
        },
      ],
    });
    expect(sdkTypeErrors("responses", [body])).toEqual([]);
  });

  it("sends images and PDFs to Gemini as inlineData parts, and images to Ollama in images", async () => {
    w = await attachingWorkspace({ provider: "google" });
    expect((await w.jp("q", "-a", "shots/a.png", "-a", "spec.pdf", "describe")).code).toBe(0);
    const gemini = w.mock.requests[0]!.body as { contents: { role: string; parts: unknown[] }[] };
    expect(gemini.contents.at(-1)).toEqual({
      role: "user",
      parts: [
        { inlineData: { mimeType: "image/png", data: PNG.toString("base64") } },
        { inlineData: { mimeType: "application/pdf", data: PDF.toString("base64") } },
        { text: "describe" },
      ],
    });
    expect(sdkTypeErrors("gemini", [gemini])).toEqual([]);
    await w.close();

    w = await attachingWorkspace({ provider: "ollama" });
    expect((await w.jp("q", "-a", "shots/a.png", "-a", "notes.txt", "describe")).code).toBe(0);
    const ollama = w.mock.requests.find((r) => r.path === "/api/chat")!.body as { messages: unknown[] };
    expect(ollama.messages.at(-1)).toEqual({
      role: "user",
      content: expect.stringMatching(
        /^<documents>[\s\S]*<source>notes\.txt<\/source>[\s\S]*<\/documents>\n\ndescribe$/,
      ) as unknown,
      images: [PNG.toString("base64")],
    });
    expect(sdkTypeErrors("ollama", [ollama])).toEqual([]);
  });

  it("refuses a PDF where the provider takes none, and what cannot be read, before anything is recorded", async () => {
    w = await attachingWorkspace({ provider: "ollama" });
    const refused = await w.jp("q", "-a", "spec.pdf", "describe");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^jp: error: ollama takes no PDFs, so spec\.pdf cannot be attached\n/);
    fs.writeFileSync(path.join(w.root, "blob.bin"), Buffer.from([0, 1, 2, 255]));
    for (const [source, said] of [
      ["missing.txt", "missing.txt: no such file to attach"],
      ["nothing/*.md", "-a nothing/*.md matches no file"],
      ["blob.bin", "blob.bin is neither text nor an image or PDF jp can attach"],
    ]) {
      const result = await w.jp("q", "-a", source!, "describe");
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(said);
    }
    expect(w.mock.requests.filter((r) => r.path === "/api/chat")).toHaveLength(0);
    expect(fs.readdirSync(path.join(w.root, ".jp/conversations")).filter((f) => !f.startsWith("."))).toEqual(
      [],
    );
  });

  it("asks a failed question again with --retry together with its attachments", async () => {
    // A 400 is not retried: the first request fails outright, and the question is kept, marked failed.
    w = await attachingWorkspace({
      script: [{ fault: { status: 400, message: "bad request" } }, { text: "now I see it" }],
    });
    expect((await w.jp("q", "-n", "-a", "shots/a.png", "what is this?")).code).not.toBe(0);
    expect((await w.jp("q", "--retry")).code).toBe(0);
    const body = w.mock.requests[1]!.body as { messages: { role: string; content: unknown[] }[] };
    const images = body.messages
      .flatMap((m) => m.content)
      .filter((b) => JSON.stringify(b).includes('"image"'));
    expect(images).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
    ]);
    const questions = w.events().filter((e) => e.type === "chat_request") as (Event & {
      attachments?: Attachment[];
    })[];
    expect(questions.map((q) => q.attachments?.map((a) => a.source))).toEqual([
      ["shots/a.png"],
      ["shots/a.png"],
    ]);
  });

  it("fetches an http URL, typed by its Content-Type", async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/shot.png") res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      else if (req.url === "/page")
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<p>hello</p>");
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    w = await attachingWorkspace({});
    const asked = await w.jp("q", "-a", `${base}/page`, "-a", `${base}/shot.png`, "describe");
    expect(asked.code, asked.stderr).toBe(0);
    expect(question(w.events()).attachments).toEqual([
      { source: `${base}/page`, media_type: "text/html", text: "<p>hello</p>" },
      { source: `${base}/shot.png`, media_type: "image/png", data: PNG.toString("base64") },
    ]);
    const missing = await w.jp("q", "-a", `${base}/gone`, "describe");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${base}/gone answered 404`);
  });
});
