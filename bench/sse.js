// bench/sse: decoding one 8 MiB server-sent event that arrives in 16 KiB
// pieces (as a long tool argument or a large thinking block does), against
// the same event arriving in one piece. A decoder that rescans what it holds
// at every piece is quadratic here; jp's must stay within 2x.
import { SseDecoder } from "../dist/net/sse.js";
import { compare } from "./lib.js";

const MiB = 1024 * 1024;
const PIECE = 16 * 1024;

function stream() {
  const data = JSON.stringify({ type: "content_block_delta", delta: { partial_json: "x".repeat(8 * MiB) } });
  return Buffer.from(`event: content_block_delta\ndata: ${data}\n\n`, "utf8");
}

function decode(pieces) {
  const decoder = new SseDecoder();
  let events = 0;
  for (const piece of pieces) events += decoder.push(piece).length;
  decoder.end();
  if (events !== 1) throw new Error(`decoded ${events} events, expected 1`);
}

export function sseBench() {
  const bytes = stream();
  const pieces = [];
  for (let i = 0; i < bytes.length; i += PIECE) pieces.push(bytes.subarray(i, i + PIECE));
  const { a, b } = compare(
    () => decode(pieces),
    () => decode([bytes]),
    7,
  );
  return {
    name: "sse",
    ratio: a / b,
    limit: 2,
    detail: `8 MiB event in ${pieces.length} pieces of 16 KiB ${a.toFixed(0)} ms vs in one piece ${b.toFixed(0)} ms`,
  };
}
