// NODE_EXTRA_CA_CERTS through bin/jp: Node starts without reading it (the
// variable reaches jp under another name), jp's connections trust the
// authority it names, and what jp runs gets the variable as the user set it.
// The provider here is the mock over HTTPS, its certificate signed by a test
// authority Node does not trust (test/fixtures/tls: the authority's key was
// discarded once it signed a certificate for 127.0.0.1, valid until 2126).
import { execa } from "execa";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const TLS = path.join(REPO_ROOT, "test/fixtures/tls");
const AUTHORITY = path.join(TLS, "ca.pem");
const tls = {
  key: fs.readFileSync(path.join(TLS, "server.key"), "utf8"),
  cert: fs.readFileSync(path.join(TLS, "server.pem"), "utf8"),
};

/** A local tool that answers with what its environment (the variables its config lists) says of the two. */
const PROBE = `
[conversation.tools.ca_probe]
source = "local"
summary = "Say what the environment names."
command = ["sh", "-c", "printf 'node=%s deferred=%s' \\"$NODE_EXTRA_CA_CERTS\\" \\"\${JP_DEFERRED_NODE_EXTRA_CA_CERTS-unset}\\""]
run = "unattended"
env = ["NODE_EXTRA_CA_CERTS", "JP_DEFERRED_NODE_EXTRA_CA_CERTS"]
`;

/** The environment Node was started with by `jp q` (waiting for its question), read from /proc. */
async function nodeEnvironment(cwd: string, env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  const child = spawn(JP, ["q"], { cwd, env, stdio: ["pipe", "ignore", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    for (let waited = 0; waited < 10_000; waited += 20) {
      const argv = fs.readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
      // sh execs node in the same process: until then its command line is sh's.
      if (argv[0] && path.basename(argv[0]) !== "sh") {
        const pairs = fs.readFileSync(`/proc/${child.pid}/environ`, "utf8").split("\0").filter(Boolean);
        return new Map(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
      }
      await sleep(20);
    }
    throw new Error("jp never started node");
  } finally {
    child.stdin.end();
    await exited;
  }
}

describe.skipIf(!fs.existsSync("/proc/self/environ"))("NODE_EXTRA_CA_CERTS through bin/jp", () => {
  let w: QWorkspace | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it("reaches a provider whose certificate the named authority signed, Node not reading the file at start", async () => {
    w = await qWorkspace({
      mockOptions: { tls },
      extraConfig: PROBE,
      script: [
        { tool_calls: [{ id: "call_1", name: "ca_probe", arguments: {} }] },
        { text: "the probe answered" },
      ],
    });
    expect(w.mock.url).toMatch(/^https:/);
    const env = { ...process.env, ...w.env, NODE_EXTRA_CA_CERTS: AUTHORITY };

    const started = await nodeEnvironment(w.root, env);
    expect(started.has("NODE_EXTRA_CA_CERTS")).toBe(false);
    expect(started.get("JP_DEFERRED_NODE_EXTRA_CA_CERTS")).toBe(AUTHORITY);

    const turn = await execa(JP, ["q", "probe the environment"], {
      cwd: w.root,
      env,
      reject: false,
      stdin: "ignore",
    });
    expect(turn.stderr).not.toMatch(/certificate/i);
    expect(turn.exitCode).toBe(0);
    expect(turn.stdout).toContain("the probe answered");
    // The tool saw the variable as the user set it, and nothing of jp's own name for it.
    expect(JSON.stringify(w.mock.requests[1]?.body)).toContain(`node=${AUTHORITY} deferred=unset`);
  });

  it("without the authority, the same provider is refused for its certificate", async () => {
    w = await qWorkspace({ mockOptions: { tls }, script: [{ text: "never sent" }] });
    const { NODE_EXTRA_CA_CERTS: _unset, ...env } = { ...process.env, ...w.env };
    const turn = await execa(JP, ["q", "hello"], { cwd: w.root, env, reject: false, stdin: "ignore" });
    expect(turn.exitCode).not.toBe(0);
    expect(turn.stderr).toMatch(/certificate/i);
    expect(w.mock.requests).toHaveLength(0);
  });

  it("a file that cannot be read is warned of in Node's words, and the bundled authorities still answer", async () => {
    w = await qWorkspace({ mockOptions: { tls }, script: [{ text: "never sent" }] });
    const missing = path.join(w.root, "no-such-ca.pem");
    const env = { ...process.env, ...w.env, NODE_EXTRA_CA_CERTS: missing };
    const turn = await execa(JP, ["q", "hello"], { cwd: w.root, env, reject: false, stdin: "ignore" });
    expect(turn.stderr).toContain(`Warning: Ignoring extra certs from \`${missing}\`, load failed:`);
    expect(turn.stderr).toMatch(/certificate/i);
    expect(turn.exitCode).not.toBe(0);
  });
});
