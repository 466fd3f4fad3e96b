// JP's recorded provider traffic (fixtures/jp-cassettes, see its NOTICE):
// each interaction holds the request a real API accepted and the bytes it
// answered, replayed to jp through the mock server as they came.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseAllDocuments } from "yaml";
import type { ScriptedResponse } from "./mock-llm.js";
import { REPO_ROOT } from "./workspace.js";

export const CASSETTES = path.join(REPO_ROOT, "fixtures/jp-cassettes");

export interface Interaction {
  path: string;
  /** The request body the real API accepted. */
  request: Record<string, unknown> | undefined;
  status: number;
  headers: Record<string, string>;
  /** The answer's bytes, as recorded (a stream, or a JSON body). */
  body: string;
}

interface Recorded {
  when: { path: string; json_body_str?: string };
  then: {
    status: number;
    header?: { name: string; value: string }[];
    body?: string;
    json_body_str?: string;
  };
}

/** Every interaction of a cassette (`provider/test_name`, without `.yml`), in order. */
export function cassette(name: string): Interaction[] {
  const text = fs.readFileSync(path.join(CASSETTES, `${name}.yml`), "utf8");
  return parseAllDocuments(text).map((doc) => {
    const r = doc.toJS() as Recorded;
    return {
      path: r.when.path,
      request: r.when.json_body_str
        ? (JSON.parse(r.when.json_body_str) as Record<string, unknown>)
        : undefined,
      status: r.then.status,
      headers: Object.fromEntries((r.then.header ?? []).map((h) => [h.name, h.value])),
      body: r.then.body ?? r.then.json_body_str ?? "",
    };
  });
}

/** A recorded answer, replayed byte for byte in pieces of at most 64 bytes (as a network cuts it). */
export function replayed(interaction: Interaction): ScriptedResponse {
  const pieces: string[] = [];
  for (let i = 0; i < interaction.body.length; i += 64) pieces.push(interaction.body.slice(i, i + 64));
  return { raw: { pieces, status: interaction.status, headers: interaction.headers } };
}
