// Owns the commander program: global options, the command list, error
// rendering and exit codes. Only this file decides the exit code.
import { visible } from "../render/visible.js";
import { takeDeferredExtraCaCerts } from "../net/extra-ca.js";
import { Command, CommanderError } from "commander";
import { fromSystemError, JpError, type ExitCode } from "../errors.js";
import { addCommands, COMMANDS } from "./commands/index.js";
import { commandWords, rewriteOptionalValues } from "./argv.js";
import { createContext, type ContextOptions } from "./context.js";
import { expandTargets } from "./targets.js";
import { VERSION } from "./version.js";

/** Runs the command `args` as the process: bin/jp's and the start-up snapshot's entry. */
export function launch(args: string[]): void {
  // Before anything reads the environment: NODE_EXTRA_CA_CERTS as the user set it, for jp and what it starts.
  takeDeferredExtraCaCerts(process.env);
  // Stack traces point at src/ through the bundle's source maps.
  if (process.env.JP_DEBUG === "1") process.setSourceMapsEnabled(true);
  // A closed pipe (`jp c print | head`) ends a listing or a view quietly. A turn (`jp q`)
  // is not cut short: its output errors (EPIPE, EIO from a closed terminal) end the turn
  // as SIGHUP does, keeping what arrived (see the CLI's context).
  const turn = args.includes("q") || args.includes("query");
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" && !turn) process.exit(0);
  });
  void main(args).then((code) => {
    process.exitCode = code;
  });
}

export async function main(argv: string[], options: ContextOptions = {}): Promise<ExitCode> {
  const ctx = createContext(options);
  const program = new Command("jp")
    .description("Keep long LLM conversations in your project, and compact them without losing anything.")
    .version(VERSION, "-V, --version")
    .option(
      "-w, --workspace <dir>",
      "use the workspace at DIR instead of the nearest .jp/ (also JP_WORKSPACE)",
    )
    .option(
      "-c, --cfg <value>",
      "extra configuration, repeatable: a TOML file, a name in .jp/config.d/, or key=value",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .exitOverride();
  program.hook("preAction", async (_program, command) => {
    await ctx.prepare();
    const { workspace, cfg } = program.opts<{ workspace?: string; cfg?: string[] }>();
    if (workspace) ctx.workspaceOption = workspace;
    ctx.cfg = cfg ?? [];
    // JP's `?` and `-` become ids before any command sees them.
    await expandTargets(ctx, command);
    // A -c value that names nothing is an error for every command, whether or not it reads the config.
    if (ctx.cfg.length === 0) return;
    const { collectLayers } = await import("./runtime.js");
    collectLayers({ cwd: ctx.cwd, env: ctx.env, workspaceDir: ctx.maybeWorkspace()?.dir, cfg: ctx.cfg });
  });

  try {
    const table = await addCommands(program, COMMANDS, commandWords(argv), ctx);
    styleErrors(program, ["jp"], ctx);
    await program.parseAsync(rewriteOptionalValues(argv, table), { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    return reportError(error, ctx.stderr, ctx.env);
  }
}

/**
 * Commander's parse errors in jp's own style (`jp: error: …` and a hint naming
 * the command's help), on every command, however it was added.
 */
function styleErrors(
  cmd: Command,
  words: string[],
  ctx: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): void {
  cmd
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
      outputError: (s, write) => {
        write(`jp: ${s}`);
      },
    })
    .showHelpAfterError(`  hint: run \`${words.join(" ")} --help\` for usage`);
  for (const sub of cmd.commands) styleErrors(sub, [...words, sub.name()], ctx);
}

function reportError(error: unknown, stderr: NodeJS.WritableStream, env: NodeJS.ProcessEnv): ExitCode {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    ) {
      return 0;
    }
    return 2;
  }
  if (!(error instanceof JpError)) error = fromSystemError(error) ?? error;
  if (error instanceof JpError) {
    // A message may quote a server's or a file's text: shown safely (render/visible).
    stderr.write(`jp: error: ${visible(error.message)}\n`);
    if (error.hint) stderr.write(`  hint: ${visible(error.hint)}\n`);
    for (const note of error.notes) stderr.write(`  note: ${visible(note)}\n`);
    if (env.JP_DEBUG === "1" && error.stack) stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  stderr.write(`jp: internal error: ${visible(error instanceof Error ? error.message : String(error))}\n`);
  if (env.JP_DEBUG === "1" && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  else stderr.write("  hint: run again with JP_DEBUG=1 to see the stack trace\n");
  return 1;
}
