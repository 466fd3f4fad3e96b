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
  return {
    name: "tokens",
    ratio: ms2 / ms1,
    limit: 1,
    detail: `gpt-tokenizer ${ms2.toFixed(0)} ms vs tiktoken ${ms1.toFixed(0)} ms for ${pieces.length} event texts (${a} tokens, identical counts)`,
  };
}
