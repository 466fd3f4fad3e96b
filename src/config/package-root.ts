// Owns where jp's own files are: the folder holding package.json, config/
// and dist/ (two folders up from this module, compiled by tsc or bundled).
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
