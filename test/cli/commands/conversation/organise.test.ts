// What JP users do to keep conversations in order: edit --title, labels and ls --label, archive and
// unarchive with ls --archived, and q --title / --no-title.
import { afterEach, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

type Item = { id: string; title: string | null; labels: string[]; archived_at: string | null };
const listed = async (...args: string[]) =>
  JSON.parse((await w!.jp("conversation", "ls", "--json", ...args)).stdout) as Item[];
const idOf = (stdout: string) => /new conversation (\d+)/.exec(stdout)?.[1] ?? "";

it("q --title titles a new conversation, q --no-title leaves it untitled; edit --title and --no-title change it", async () => {
  w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }] });
  const titled = await w.jp("q", "-n", "--title", "Parser work", "why does it fail?");
  const first = idOf(titled.stderr);
  const untitled = await w.jp("q", "-n", "--no-title", "second question");
  const second = idOf(untitled.stderr);
  expect((await listed()).map((i) => [i.id, i.title])).toEqual([
    [first, "Parser work"],
    [second, null],
  ]);
  expect((await w.jp("conversation", "edit", second, "--title", "Named later")).stdout).toBe(
    `Titled ${second} "Named later"\n`,
  );
  expect((await w.jp("conversation", "edit", first, "--no-title")).code).toBe(0);
  expect((await listed()).map((i) => i.title)).toEqual([null, "Named later"]);
  const nothing = await w.jp("conversation", "edit", first);
  expect(nothing.code).toBe(2);
  expect(nothing.stderr).toContain("nothing to change");
  // The events are never touched: both logs hold their one turn.
  expect(w.events(first).filter((e) => e.type === "chat_request")).toHaveLength(1);
});

it("labels are added and removed, and ls --label lists the conversations that have one", async () => {
  w = await qWorkspace();
  const a = (JSON.parse((await w.jp("conversation", "new", "--json")).stdout) as { id: string }).id;
  const b = (JSON.parse((await w.jp("conversation", "new", "--json")).stdout) as { id: string }).id;
  expect((await w.jp("conversation", "label", a, "work", "rust")).stdout).toBe(`${a}: work, rust\n`);
  expect((await w.jp("conversation", "label", b, "work")).code).toBe(0);
  expect((await listed("--label", "work")).map((i) => i.id)).toEqual([a, b]);
  expect((await listed("--label", "rust")).map((i) => i.id)).toEqual([a]);
  expect((await w.jp("conversation", "label", a, "--remove", "rust")).stdout).toBe(`${a}: work\n`);
  expect(await listed("--label", "rust")).toEqual([]);
  expect((await w.jp("conversation", "ls", "--label", "rust")).stdout).toBe("No conversation matches.\n");
  const bad = await w.jp("conversation", "label", a, "two words");
  expect(bad.code).toBe(2);
  expect((await w.jp("conversation", "ls")).stdout).toContain("[work]");
});

it("archive sets a conversation aside from ls, ls --archived lists it, unarchive brings it back", async () => {
  w = await qWorkspace();
  const a = (JSON.parse((await w.jp("conversation", "new", "--json")).stdout) as { id: string }).id;
  const b = (JSON.parse((await w.jp("conversation", "new", "--json")).stdout) as { id: string }).id;
  expect((await w.jp("conversation", "archive", a)).stdout).toContain(`Archived ${a}`);
  expect((await listed()).map((i) => i.id)).toEqual([b]);
  const archived = await listed("--archived");
  expect(archived.map((i) => i.id)).toEqual([a]);
  expect(archived[0]!.archived_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  // Still there for every command that names it.
  expect((await w.jp("conversation", "show", a)).code).toBe(0);
  expect((await w.jp("conversation", "unarchive", a)).stdout).toBe(`Unarchived ${a}\n`);
  expect((await listed()).map((i) => i.id)).toEqual([a, b]);
});

it("q --fork asks in a fork of the conversation, --fork=N keeps its last N turns; the original stays as it was", async () => {
  w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }] });
  await w.jp("q", "-n", "one");
  await w.jp("q", "two");
  const original = (await listed())[0]!.id;
  const forked = await w.jp("q", "--fork=1", "three");
  expect(forked.code, forked.stderr).toBe(0);
  const fork = /forked \d+ into (\d+)/.exec(forked.stderr)?.[1] ?? "";
  expect(fork).not.toBe("");
  const questions = (id: string) =>
    w!.events(id).flatMap((e) => (e.type === "chat_request" ? [e.content] : []));
  expect(questions(fork)).toEqual(["two", "three"]);
  expect(questions(original)).toEqual(["one", "two"]);
  // The fork is the active one now; --fork alone copies every turn.
  await w.jp("q", "--fork", "four");
  const newest = (await listed()).at(-1)!.id;
  expect(questions(newest)).toEqual(["two", "three", "four"]);
  const bad = await w.jp("q", "--fork=0", "x");
  expect(bad.code).toBe(2);
});
