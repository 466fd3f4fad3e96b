// Draws src/'s import graph with madge and refuses an import that runs from a
// lower layer to a higher one (docs/architecture.md §2). The layers, top down;
// a folder may import its own layer and any layer below it.
import madge from "madge";

const LAYERS = [
  ["cli"],
  ["service"],
  ["turn"],
  ["llm", "tools", "mcp", "render", "store", "config", "tokens"],
  ["net", "chat", "compaction"],
  ["events"],
  // src/'s own files (errors, glob, types, user-cache) sit under everything.
  ["."],
];
const ENTRY = "index.ts"; // the library's public face re-exports from every layer

const layerOf = (file) => {
  const top = file.includes("/") ? file.slice(0, file.indexOf("/")) : ".";
  const index = LAYERS.findIndex((layer) => layer.includes(top));
  return index === -1 ? LAYERS.findIndex((layer) => layer.includes(".")) : index;
};

const graph = (await madge("src", { fileExtensions: ["ts"], tsConfig: "tsconfig.json" })).obj();
const upward = [];
for (const [from, imports] of Object.entries(graph)) {
  if (from === ENTRY) continue;
  for (const to of imports) {
    if (layerOf(to) < layerOf(from)) upward.push(`${from} → ${to}`);
  }
}
if (upward.length > 0) {
  console.error(`${upward.length} import(s) from a lower layer to a higher one (docs/architecture.md §2):`);
  for (const line of upward) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`layers: ${Object.keys(graph).length} modules, no import runs up a layer`);
