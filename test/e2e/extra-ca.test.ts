// NODE_EXTRA_CA_CERTS through bin/jp: Node starts without reading it (the
// variable reaches jp under another name), jp's connections trust the
// authority it names, and what jp runs gets the variable as the user set it.
// The provider here is the mock over HTTPS, its certificate signed by a test
// authority Node does not trust (test/fixtures/tls: the authority's key was
// discarded once it signed a certificate for 127.0.0.1, valid until 2126).
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HAS_PROC, nodeStartedBy } from "../support/node-start.js";
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

describe.skipIf(!HAS_PROC)("NODE_EXTRA_CA_CERTS through bin/jp", () => {
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

    const started = (await nodeStartedBy(JP, w.root, env)).env;
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
