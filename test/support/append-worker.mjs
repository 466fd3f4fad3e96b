// A separate process that appends groups to one log, for the concurrency and crash tests.
// Usage: node append-worker.mjs DIR WORKER_ID EVENTS [GROUP_MAX]
import { EventLog } from "../../dist/store/log.js";

const [dir, worker, total, groupMax = "7"] = process.argv.slice(2);
const log = new EventLog(dir);
let written = 0;
let group = 0;
while (written < Number(total)) {
  const size = Math.min(1 + ((group * 31 + Number(worker) * 7) % Number(groupMax)), Number(total) - written);
  const events = [];
  for (let i = 0; i < size; i++) {
    events.push({
      type: "chat_response",
      timestamp: new Date().toISOString(),
      message: `w${worker} g${group} i${i}/${size} ` + "x".repeat(200 + ((i * 97) % 3000)),
      metadata: { worker: Number(worker), group, index: i, size },
    });
  }
  log.append(events, { timeoutMs: 120_000 });
  process.send?.({ committed: group, size });
  written += size;
  group += 1;
}
