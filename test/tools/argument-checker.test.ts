// The argument checker against JSON Schemas as tools really declare them.
import { describe, expect, it } from "vitest";
import { argumentChecker } from "../../src/tools/argument-checker.js";

describe("argumentChecker", () => {
  it("says a required argument is missing, whatever its schema (an enum, a union)", () => {
    const check = argumentChecker({
      type: "object",
      properties: {
        kind: { type: "string", enum: ["file", "dir"] },
        size: { anyOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["kind", "size"],
    });
    expect(check({})).toBe("missing required argument 'kind'");
    expect(check({ kind: "file" })).toBe("missing required argument 'size'");
    expect(check({ kind: "file", size: 3 })).toBeUndefined();
  });

  it("takes a value an enum of arrays or objects holds, and names them when it does not", () => {
    const check = argumentChecker({
      type: "object",
      properties: { range: { enum: [[1, 2], { from: 3 }, "all"] } },
      required: ["range"],
    });
    expect(check({ range: [1, 2] })).toBeUndefined();
    expect(check({ range: { from: 3 } })).toBeUndefined();
    expect(check({ range: "all" })).toBeUndefined();
    expect(check({ range: [2, 1] })).toBe('argument \'range\' must be one of [1,2], {"from":3}, "all"');
  });

  it("keeps its words for wrong types and unknown arguments", () => {
    const check = argumentChecker({
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
      additionalProperties: false,
    });
    expect(check({ path: 3 })).toBe("argument 'path' must be string, got integer");
    expect(check({ path: "a", other: 1 })).toBe("unknown argument 'other'; expected path");
  });
});
