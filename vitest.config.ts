import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Tests outside test/e2e/ that start processes (a tool's command, an MCP
 * server, a worker holding a lock, git): the end-to-end tier runs them. The
 * unit tier's setup (test/support/no-process.ts) fails any other test that
 * starts one, naming this list.
 */
const STARTS_PROCESSES = [
  "test/cli/commands/completion.test.ts",
  "test/cli/commands/config/extends-limits.test.ts",
  "test/cli/commands/conversation/fork-running.test.ts",
  "test/cli/commands/conversation/hints.test.ts",
  "test/cli/commands/conversation/metadata-races.test.ts",
  "test/cli/commands/conversation/show-context.test.ts",
  "test/cli/commands/jp-habits.test.ts",
  "test/cli/commands/q-any-json.test.ts",
  "test/cli/commands/q-compatible.test.ts",
  "test/cli/commands/q-display.test.ts",
  "test/cli/commands/q-gemini.test.ts",
  "test/cli/commands/q-models.test.ts",
  "test/cli/commands/q-trust.test.ts",
  "test/cli/commands/q.test.ts",
  "test/cli/compile-cache.test.ts",
  "test/config/jp-workspace.test.ts",
  "test/index.test.ts",
  "test/llm/conformance.test.ts",
  "test/llm/jp-replay.test.ts",
  "test/llm/providers/google/replay.test.ts",
  "test/llm/providers/ollama/replay.test.ts",
  "test/llm/replay.test.ts",
  "test/llm/transport.test.ts",
  "test/store/concurrency.test.ts",
  "test/store/files.test.ts",
  "test/store/links.test.ts",
  "test/tools/jp-protocol.test.ts",
  "test/tools/local.test.ts",
];

/**
 * Files run side by side. Vitest's default on 2 cores is one file at a time
 * (cores - 1), which leaves a core idle while an end-to-end test waits on the
 * processes it started; the unit tier uses every core, the end-to-end tier one
 * more file than there are cores, as its files spend most of their time waiting.
 */
const CORES = availableParallelism();

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          maxWorkers: CORES,
          // Projects that run with other worker counts run one after the other: the unit tier first.
          sequence: { groupOrder: 0 },
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", ...STARTS_PROCESSES],
          setupFiles: ["test/support/no-process.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          maxWorkers: CORES + 1,
          sequence: { groupOrder: 1 },
          include: ["test/e2e/**/*.test.ts", ...STARTS_PROCESSES],
        },
      },
    ],
  },
});
