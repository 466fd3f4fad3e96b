// Preloaded with `node --import`: writes the process's peak resident memory (bytes) to $JP_PEAK_RSS_FILE at exit.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  writeFileSync(process.env.JP_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
