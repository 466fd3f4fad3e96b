// How bin/jp started Node, read from /proc while `jp q` waits for its question
// on stdin: sh execs node in the same process, so until then the process is sh.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Whether this system has /proc to read a process's command line and environment from. */
export const HAS_PROC = fs.existsSync("/proc/self/environ");

/** Node's command line and initial environment, as `jp` (a path to bin/jp) started it for `jp q`. */
export async function nodeStartedBy(
  jp: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ argv: string[]; env: Map<string, string> }> {
  const child = spawn(jp, ["q"], { cwd, env, stdio: ["pipe", "ignore", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    for (let waited = 0; waited < 10_000; waited += 20) {
      const argv = fs.readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (argv[0] && path.basename(argv[0]) !== "sh") {
        const pairs = fs.readFileSync(`/proc/${child.pid}/environ`, "utf8").split("\0").filter(Boolean);
        const started = new Map(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
        return { argv, env: started };
      }
      await sleep(20);
    }
    throw new Error("jp never started node");
  } finally {
    child.stdin.end();
    await exited;
  }
}
