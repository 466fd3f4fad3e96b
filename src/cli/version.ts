// Owns the version string, read once from package.json next to dist/.
import { readFileSync } from "node:fs";

function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return typeof manifest === "object" && manifest !== null && "version" in manifest
    ? String(manifest.version)
    : "unknown";
}

export const VERSION: string = packageVersion();
