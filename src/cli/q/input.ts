// Owns what `jp q` reads before it asks: the question (words, stdin or the
// editor) and its attachments, from -a and from conversation.attachments.
import type { Config } from "../../config/schema.js";
import { UsageError } from "../../errors.js";
import { providerKeyEnvs } from "../../llm/create-provider.js";
import { type Attachment } from "../../events/index.js";
import { visible } from "../../render/visible.js";
import { createTerminalPrompter } from "../../tools/prompter.js";
import type { Context } from "../context.js";
import type { QOptions } from "./options.js";

/** The query from the words, stdin when piped, and $EDITOR with -e. */
/** The query; undefined when the person cancelled writing it in $EDITOR. */
export async function readQuery(ctx: Context, words: string[], opts: QOptions): Promise<string | undefined> {
  let query = words.join(" ");
  const stdinIsTTY = await ctx.stdinIsTTY();
  if (!stdinIsTTY) {
    const piped = await ctx.readStdin();
    if (piped.trim()) query = query ? `${query}\n\n${piped}` : piped;
  }
  // No words and a terminal: the question is written in $EDITOR, as with -e (JP does the same).
  if (opts.edit || (!query.trim() && stdinIsTTY)) {
    const prompter = createTerminalPrompter({
      stdin: () => ctx.stdin,
      stdinIsTTY,
      stderr: ctx.stderr,
      env: ctx.env,
      safe: visible,
    });
    // Saved unchanged, the question given is the question: only an empty buffer or an error cancels.
    const edited = await prompter.editText(query ? `${query}\n` : "", ".md", { keepUnchanged: true });
    if (edited === undefined) return undefined;
    query = edited.trim();
  }
  if (!query.trim()) {
    throw new UsageError(
      "nothing to ask",
      "give the query as arguments, pipe it on stdin, or write it in $EDITOR (-e, or no words on a terminal)",
    );
  }
  return query;
}

/** How attachments' URLs are fetched: through the proxy the environment names, trusting what they trust, as provider requests go. */
function attachmentFetcher(ctx: Context) {
  return async (url: string, init: RequestInit) => {
    const { proxyFor } = await import("../../net/proxy.js");
    const { fetchFor } = await import("../../net/fetch-through.js");
    return (fetchFor(proxyFor(url, ctx.env)) ?? fetch)(url, init);
  };
}

/** What -a names, read. */
export async function readAttachments(
  sources: readonly string[],
  ctx: Context,
  config: Config,
): Promise<Attachment[]> {
  if (sources.length === 0) return [];
  const { readAttachments: read, attachedSummary } = await import("../attachments.js");
  const attached = await read(
    sources,
    ctx.cwd,
    attachmentFetcher(ctx),
    await commandEnvironment(ctx, config),
  );
  const summary = attachedSummary(sources, attached, ctx.cwd);
  if (summary) ctx.info(ctx.color.dim(summary));
  return attached;
}

/** The environment an attached command runs in: a tool's, with no provider key. */
async function commandEnvironment(ctx: Context, config: Config): Promise<Record<string, string>> {
  const { toolEnvironment } = await import("../../tools/local.js");
  const root = ctx.maybeWorkspace()?.root ?? ctx.cwd;
  return toolEnvironment({ env: ctx.env, workspace: root, secrets: providerKeyEnvs(config) });
}

/** What `conversation.attachments` names, read anew for this question (relative to the workspace). */
export async function readConfigAttachments(ctx: Context, config: Config): Promise<Attachment[]> {
  const entries = config.conversation?.attachments ?? [];
  if (entries.length === 0) return [];
  const { readConfigAttachments: read } = await import("../attachments.js");
  const root = ctx.maybeWorkspace()?.root ?? ctx.cwd;
  const env = await commandEnvironment(ctx, config);
  return read(
    entries,
    root,
    attachmentFetcher(ctx),
    (line) => {
      ctx.warn(line);
    },
    env,
  );
}
