// JP's events.json read one element at a time: whatever the elements hold
// (quotes, backslashes, brackets in strings, any Unicode) and wherever the
// pieces of the file end, each element comes back whole and in order.
import fc from "fast-check";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonArrayElements, NotAJsonArrayError } from "../../src/store/json-array.js";
import { tempDir } from "../support/workspace.js";

const dir = tempDir();
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
let files = 0;
const write = (text: string | Buffer) => {
  const file = path.join(dir, `events-${files++}.json`);
  fs.writeFileSync(file, text);
  return file;
};
const elements = (file: string, piece: number) =>
  [...jsonArrayElements(file, undefined, piece)].map((t) => JSON.parse(t) as unknown);

const tricky = fc.string({
  unit: fc.constantFrom('"', "\\", "[", "]", "{", "}", ",", " ", "\n", "é", "日", "😀", "a", "\\\\"),
});

describe("jsonArrayElements", () => {
  it("gives back each element whole, for any content and any piece size", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.record({ type: fc.constant("chat_request"), content: tricky }), fc.jsonValue()),
          { maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 17 }),
        fc.boolean(),
        fc.boolean(),
        (values, piece, pretty, bom) => {
          const json = JSON.stringify(values, null, pretty ? 2 : undefined);
          const file = write(Buffer.concat([Buffer.from(bom ? "\ufeff" : ""), Buffer.from(json)]));
          expect(elements(file, piece)).toEqual(JSON.parse(json));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("says what is wrong with a file that is not one JSON array", () => {
    const wrong = (text: string) => () => [...jsonArrayElements(write(text))];
    expect(wrong('{"type":"x"}')).toThrow(NotAJsonArrayError);
    expect(wrong('{"type":"x"}')).toThrow("it is not a JSON array");
    expect(wrong('[{"a":1},')).toThrow("the array does not end");
    expect(wrong("")).toThrow("the file is empty");
    expect(wrong("[1] 2")).toThrow("text after the end of the array");
    expect(wrong("[,1]")).toThrow("an element is missing before a comma");
    expect([...jsonArrayElements(write(" [ ] \n"))]).toEqual([]);
  });
});
