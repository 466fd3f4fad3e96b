// The part of scripts/schema-checks.mjs its test calls.
/** Every checker module, by its path in the repository, written from the given schema modules. */
export function checkerFiles(schemas: Record<string, unknown>): Promise<Record<string, string>>;
