// The checkers derived from the zod schemas (scripts/schema-checks.mjs) are
// what jp runs; zod explains only what they reject. So: each written file must
// be what the schemas give today, and each checker must accept exactly what
// zod accepts and report zod's first issue (path, code and message), on
// values drawn near each schema's shape, valid or slightly off.
import fc from "fast-check";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { checkConfig } from "../src/config/schema.check.js";
import * as configChecks from "../src/config/checks.js";
import * as config from "../src/config/schema.js";
import { KNOWN_EVENT_CHECKERS } from "../src/events/schema.check.js";
import * as eventChecks from "../src/events/checks.js";
import * as events from "../src/events/schema.js";
import { checkCompactArgs } from "../src/tools/compact-args.check.js";
import * as compactArgs from "../src/tools/compact-args.js";
import * as recallArgs from "../src/tools/recall-args.js";
import { checkerFiles } from "../scripts/schema-checks.mjs";
import { REPO_ROOT } from "./support/workspace.js";
import { objectContaining } from "./support/matchers.js";

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  catchall?: z.ZodType;
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[];
}
// Cast: zod keeps a schema's definition in `_zod.def`, which its public types do not expose.
const def = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const offValue = fc.oneof(
  fc.constantFrom(null, undefined, 1.5, -1, 0, "", "x", true, [], {}, Number.NaN, Infinity, 2 ** 60),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Objects of the shape: with every required key or with any, and sometimes a key it does not name. */
function nearObject(d: Def, depth: number): fc.Arbitrary<unknown> {
  const shape = Object.fromEntries(
    Object.entries(d.shape!).map(([key, child]) => [
      key,
      depth > 4 ? fc.constant(undefined) : near(child, depth + 1),
    ]),
  );
  const required = Object.keys(d.shape!).filter((key) => def(d.shape![key]!).type !== "optional");
  return fc
    .tuple(
      fc.oneof(fc.record(shape, { requiredKeys: required }), fc.record(shape, { requiredKeys: [] })),
      fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        fc.dictionary(fc.constantFrom("extra", "idd"), fc.jsonValue(), { maxKeys: 1 }),
      ),
    )
    .map(([fields, extra]) => ({ ...fields, ...extra }));
}

/** Values near `schema`: mostly of its shape (valid or with a part off), sometimes anything at all. */
function near(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const d = def(schema);
  const length = (name: string) => d.checks?.find((c) => c._zod.def.check === name)?._zod.def;
  let shaped: fc.Arbitrary<unknown>;
  switch (d.type) {
    case "optional":
      return fc.oneof(fc.constant(undefined), near(d.innerType!, depth));
    case "string":
      shaped = fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom("", "1", "-3", "@5", "5h", "2days", "last-compaction", "x".repeat(201)),
        fc.string({
          minLength: length("min_length")?.minimum ?? 0,
          maxLength: length("max_length")?.maximum,
        }),
      );
      break;
    case "number":
      shaped = fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: -3, max: 300 }) },
        fc.double({ min: -2, max: 2 }),
        fc.constantFrom(0, 1, 0.5),
      );
      break;
    case "boolean":
      shaped = fc.boolean();
      break;
    case "literal":
      shaped = fc.constantFrom(...d.values!);
      break;
    case "enum":
      shaped = fc.constantFrom(...Object.values(d.entries!));
      break;
    case "unknown":
    case "custom":
      shaped = fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue()),
      );
      break;
    case "array":
      shaped = depth > 4 ? fc.constant([]) : fc.array(near(d.element!, depth + 1), { maxLength: 3 });
      break;
    case "record":
      shaped =
        depth > 4
          ? fc.constant({})
          : fc.dictionary(fc.constantFrom("a", "*", "claude", "x y"), near(d.valueType!, depth + 1), {
              maxKeys: 3,
            });
      break;
    case "union":
      shaped = fc.oneof(...d.options!.map((o) => near(o, depth + 1)));
      break;
    case "pipe":
      // What the first schema admits; the second narrows it.
      return near(d.in!, depth);
    case "never":
      shaped = offValue;
      break;
    case "object":
      shaped = nearObject(d, depth);
      break;
    default:
      throw new Error(`no arbitrary for zod type ${d.type}`);
  }
  return fc.oneof({ weight: 12, arbitrary: shaped }, { weight: 1, arbitrary: offValue });
}

function sameVerdict(schema: z.ZodType, check: (value: unknown) => unknown, runs: number) {
  let valid = 0;
  fc.assert(
    fc.property(near(schema), (value) => {
      const zod = schema.safeParse(value);
      const ours = check(value) as { path: unknown[]; code: string; message: string } | undefined;
      if (zod.success) {
        valid++;
        expect(ours).toBeUndefined();
      } else {
        const first = zod.error.issues[0]!;
        expect(ours).toEqual(
          objectContaining({ path: first.path, code: first.code, message: first.message }),
        );
      }
    }),
    { numRuns: runs },
  );
  // The values must reach both verdicts, or the comparison says little.
  expect(valid).toBeGreaterThan(runs / 40);
  expect(valid).toBeLessThan(runs);
}

describe("checkers derived from the zod schemas", () => {
  it("are what scripts/schema-checks.mjs writes from the schemas today", async () => {
    const files = await checkerFiles({
      events,
      eventChecks,
      config,
      configChecks,
      compactArgs,
      recallArgs,
      toJSONSchema: z.toJSONSchema,
    });
    expect(Object.keys(files).length).toBe(4);
    for (const [file, source] of Object.entries(files)) {
      expect(
        fs.readFileSync(path.join(REPO_ROOT, file), "utf8"),
        `${file} is stale: run node scripts/schema-checks.mjs --write`,
      ).toBe(source);
    }
  });

  it.each(Object.keys(events.KNOWN_SCHEMAS) as events.EventKind[])(
    "accept what zod accepts: %s events",
    (kind) => {
      sameVerdict(events.KNOWN_SCHEMAS[kind], KNOWN_EVENT_CHECKERS[kind], 500);
    },
  );

  it("accept what zod accepts: configuration", () => {
    sameVerdict(config.Config, checkConfig, 1500);
  });

  it("accept what zod accepts: the compact tool's arguments", () => {
    sameVerdict(compactArgs.Args, checkCompactArgs, 600);
  });
});
