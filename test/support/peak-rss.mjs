// Preloaded with `node --import` in tests: each process writes its peak
// resident memory (bytes) to $JP_PEAK_RSS_DIR/<pid> at exit, so a test
// bounds the memory of jp and of whatever node process it starts.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

process.on("exit", () => {
  writeFileSync(
    join(process.env.JP_PEAK_RSS_DIR, String(process.pid)),
    String(process.resourceUsage().maxRSS * 1024),
  );
});
