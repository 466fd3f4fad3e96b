// Owns the extra certificate authorities NODE_EXTRA_CA_CERTS names, when
// bin/jp deferred them. Node 20 reads that file, and builds its whole store of
// trusted authorities, as every process starts: some 50 ms on a machine whose
// file holds the system's ~140 certificates, paid by `jp conversation ls` as
// much as by a turn. Node itself has since moved that work to the first TLS
// connection (nodejs/node#59856). bin/jp does the same for Node 20: it hands
// the file to jp under DEFERRED_EXTRA_CA_CERTS instead, and jp trusts it,
// beside Node's bundled authorities, on its first TLS connection.
import * as fs from "node:fs";
import type { SecureContext } from "node:tls";

/** Where bin/jp puts NODE_EXTRA_CA_CERTS's value when it keeps Node from reading it at start. */
export const DEFERRED_EXTRA_CA_CERTS = "JP_DEFERRED_NODE_EXTRA_CA_CERTS";

/** The file whose authorities jp still has to trust itself, taken at launch. */
let deferredFile: string | undefined;
let context: Promise<SecureContext | undefined> | undefined;

/**
 * Takes a deferred file back at launch: NODE_EXTRA_CA_CERTS is set again for
 * the processes jp starts (tools, MCP servers, the editor), which read it as
 * they always did, and jp's own TLS connections trust it (`tlsTrust`).
 */
export function takeDeferredExtraCaCerts(env: NodeJS.ProcessEnv): void {
  const file = env[DEFERRED_EXTRA_CA_CERTS];
  if (file === undefined) return;
  Reflect.deleteProperty(env, DEFERRED_EXTRA_CA_CERTS);
  env.NODE_EXTRA_CA_CERTS = file;
  deferredFile = file || undefined;
  context = undefined;
}

/** Whether jp's TLS connections need `tlsTrust`'s options: some of the authorities they trust are jp's to add. */
export function trustIsDeferred(): boolean {
  return deferredFile !== undefined;
}

/**
 * The options a TLS connection from jp takes so that it trusts what Node
 * would have at start: nothing when Node read NODE_EXTRA_CA_CERTS itself,
 * else a secure context with Node's bundled authorities and the file's,
 * made once per process (the parse costs what Node's start-up read did).
 */
export async function tlsTrust(): Promise<{ secureContext?: SecureContext }> {
  if (deferredFile === undefined) return {};
  const secureContext = await (context ??= extraCaContext(deferredFile));
  return secureContext ? { secureContext } : {};
}

async function extraCaContext(file: string): Promise<SecureContext | undefined> {
  const tls = await import("node:tls");
  let certificates: string[];
  try {
    certificates = fs.readFileSync(file, "latin1").match(PEM_CERTIFICATE) ?? [];
    if (certificates.length === 0) throw new Error("no PEM certificate in it");
  } catch (error) {
    // Node's own words when it cannot read the file at start; it goes on with the bundled authorities.
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${reason}\n`);
    return undefined;
  }
  return tls.createSecureContext({ ca: [...tls.rootCertificates, ...certificates] });
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;
