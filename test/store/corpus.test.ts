// Imports every recorded JP conversation beside the checkout and checks nothing was lost.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { isJsonObject, kindOf } from "../../src/events/index.js";
import { ConversationStore } from "../../src/store/conversations.js";
import { importJpConversation } from "../../src/store/import-into.js";
import { decodeJpString, findJpConversations } from "../../src/store/import-jp.js";
import { FIXTURES_DIR, tempWorkspace } from "../support/workspace.js";
import { anyString } from "../support/matchers.js";

const present = fs.existsSync(FIXTURES_DIR);
if (!present) console.warn(`corpus tests skipped: ${FIXTURES_DIR} is absent`);

function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => leaves(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => leaves(v, out));
  return out;
}

describe.skipIf(!present)("JP corpus import", () => {
  const folders = present ? findJpConversations(FIXTURES_DIR) : [];

  it.each(folders.map((f) => [path.basename(f), f]))("imports %s losslessly", (_name, folder) => {
    const store = new ConversationStore(tempWorkspace());
    const result = importJpConversation(store, folder);
    const eventsFile = path.join(folder, "events.json");
    if (!fs.existsSync(eventsFile)) {
      expect(result).toMatchObject({ reason: anyString });
      return;
    }
    if ("reason" in result) throw new Error(result.reason);
    const source = JSON.parse(fs.readFileSync(eventsFile, "utf8")) as { type: string; arguments?: unknown }[];
    const expected: Record<string, number> = {};
    for (const e of source) expected[e.type] = (expected[e.type] ?? 0) + 1;
    // base_config.json becomes one leading config_delta.
    if (fs.existsSync(path.join(folder, "base_config.json")))
      expected.config_delta = (expected.config_delta ?? 0) + 1;

    const ref = store.resolve(result.id);
    const events = store.readEvents(ref);
    const actual: Record<string, number> = {};
    for (const e of events) actual[kindOf(e)] = (actual[kindOf(e)] ?? 0) + 1;
    expect(actual).toEqual(expected);

    const requests = new Map<string, Record<string, unknown>>();
    const allArguments: Record<string, unknown>[] = [];
    for (const e of events) {
      if (e.type === "tool_call_request") {
        const args = e.arguments;
        expect(isJsonObject(args)).toBe(true);
        requests.set(e.id, args);
        allArguments.push(args);
      }
      if (e.type === "tool_call_response") expect(requests.has(e.id)).toBe(true);
    }
    // Where the source had base64 in arguments, our log has plain text: no leaf decodes any further,
    // and every leaf that was encoded in the source differs from it now.
    const sourceLeaves = source
      .filter((e) => e.type === "tool_call_request")
      .flatMap((e) => leaves(e.arguments));
    const ourLeaves = allArguments.flatMap((a) => leaves(a));
    expect(ourLeaves).toHaveLength(sourceLeaves.length);
    ourLeaves.forEach((leaf, i) => {
      expect(decodeJpString(leaf)).toBe(leaf);
      const original = sourceLeaves[i]!;
      if (decodeJpString(original) !== original) expect(leaf).not.toBe(original);
    });
  });
});
