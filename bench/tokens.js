// bench/tokens: the two o200k tokenizers on the same text in one run — which to ship.
import { compare, rng, syntheticTurns } from "./lib.js";

export async function tokensBench() {
  const { get_encoding } = await import("tiktoken");
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const tiktoken = get_encoding("o200k_base");
  // Event-sized pieces, as jp counts them (one count per event, cached).
  const pieces = [];
  const gen = syntheticTurns(rng(11));
  while (pieces.length < 20_000)
    for (const e of gen.next().value.events)
      pieces.push(e.content ?? e.message ?? e.reasoning ?? JSON.stringify(e.arguments ?? ""));
  let a = 0;
  let b = 0;
  const { a: ms1, b: ms2 } = compare(
    () => (a = pieces.reduce((n, p) => n + tiktoken.encode(p).length, 0)),
    () => (b = pieces.reduce((n, p) => n + countTokens(p), 0)),
    5,
  );
  tiktoken.free();
  if (a !== b) throw new Error(`the tokenizers disagree: tiktoken ${a}, gpt-tokenizer ${b}`);
  // Pathological texts through jp's counter: a megabyte of one character, and base64 of
  // zeros, against a megabyte of ordinary event text.
  const { createTokenCounter } = await import("../dist/tokens/count.js");
  const megabyte = 1024 * 1024;
  const ordinary = pieces.join("\n").slice(0, megabyte);
  const pathological = ["a".repeat(megabyte), Buffer.alloc((megabyte * 3) / 4).toString("base64")];
  const time = async (text) => {
    const counter = await createTokenCounter("openai/gpt-4.1");
    const start = performance.now();
    counter.text(text);
    return { ms: performance.now() - start, approximate: counter.approximate };
  };
  const base = await time(ordinary);
  const worst = [];
  for (const text of pathological) worst.push(await time(text));
  const slowest = Math.max(...worst.map((w) => w.ms));
  return [
    {
      name: "tokens",
      ratio: ms2 / ms1,
      limit: 1,
      detail: `gpt-tokenizer ${ms2.toFixed(0)} ms vs tiktoken ${ms1.toFixed(0)} ms for ${pieces.length} event texts (${a} tokens, identical counts)`,
    },
    {
      name: "tokens bad",
      ratio: slowest / base.ms,
      limit: 3,
      detail: `1 MB of one character ${worst[0].ms.toFixed(0)} ms, base64 of zeros ${worst[1].ms.toFixed(0)} ms (counted ≈: ${worst.every((w) => w.approximate)}) vs 1 MB of ordinary text ${base.ms.toFixed(0)} ms`,
    },
  ];
}
