// The authorities bin/jp defers (src/net/extra-ca.ts), taken back at launch:
// the environment as the user set it, and a fetch for the clients that take
// one (MCP over HTTP, attachments' URLs) that trusts them, to a server whose
// certificate only the test authority signed (test/fixtures/tls).
import * as fs from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFERRED_EXTRA_CA_CERTS,
  takeDeferredExtraCaCerts,
  trustIsDeferred,
} from "../../src/net/extra-ca.js";
import { fetchFor } from "../../src/net/fetch-through.js";
import { REPO_ROOT } from "../support/workspace.js";

const TLS = path.join(REPO_ROOT, "test/fixtures/tls");
const AUTHORITY = path.join(TLS, "ca.pem");

describe("extra authorities deferred by bin/jp", () => {
  let server: https.Server;
  let url: string;
  beforeAll(async () => {
    server = https.createServer(
      {
        key: fs.readFileSync(path.join(TLS, "server.key")),
        cert: fs.readFileSync(path.join(TLS, "server.pem")),
      },
      (_req, res) => res.end("trusted"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  );

  // In this order: the module keeps what launch took for the rest of the process.
  it("with nothing deferred, leaves the environment alone and Node's fetch to the clients", async () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: "/somewhere/else.pem" };
    takeDeferredExtraCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: "/somewhere/else.pem" });
    expect(trustIsDeferred()).toBe(false);
    expect(fetchFor(undefined)).toBeUndefined();
    // This process's Node trusts no test authority: the server is refused.
    await expect(fetch(url)).rejects.toThrow();
  });

  it("gives NODE_EXTRA_CA_CERTS back, and the clients' fetch trusts the file it names", async () => {
    const env: NodeJS.ProcessEnv = { [DEFERRED_EXTRA_CA_CERTS]: AUTHORITY, PATH: "/bin" };
    takeDeferredExtraCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: AUTHORITY, PATH: "/bin" });
    expect(trustIsDeferred()).toBe(true);
    const deferredFetch = fetchFor(undefined);
    expect(deferredFetch).toBeDefined();
    const answer = await deferredFetch!(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("trusted");
  });
});
