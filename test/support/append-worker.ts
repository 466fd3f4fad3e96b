// A separate process that appends groups to one log, for the concurrency and crash tests.
// Built from src by test/support/workers.ts; run as: node WORKER DIR WORKER_ID EVENTS [GROUP_MAX] [EVENT_BYTES]
// Each committed group is reported to the parent (`{ committed, size }`); with EVENT_BYTES
// every event carries a message of that size, so that one group takes a while to write.
import { EventLog } from "../../src/store/log.js";
import type { Event } from "../../src/events/index.js";

const [dir = "", worker = "0", total = "0", groupMax = "7", eventBytes] = process.argv.slice(2);
const log = new EventLog(dir);
let written = 0;
let group = 0;
while (written < Number(total)) {
  const size = Math.min(1 + ((group * 31 + Number(worker) * 7) % Number(groupMax)), Number(total) - written);
  const events: Event[] = [];
  for (let i = 0; i < size; i++) {
    const prefix = `w${worker} g${group} i${i}/${size} `;
    const length = eventBytes ? Number(eventBytes) : 200 + ((i * 97) % 3000);
    events.push({
      type: "chat_response",
      timestamp: new Date().toISOString(),
      message: prefix + "x".repeat(length),
      metadata: { worker: Number(worker), group, index: i, size },
    });
  }
  log.append(events, { timeoutMs: 120_000 });
  process.send?.({ committed: group, size });
  written += size;
  group += 1;
}
