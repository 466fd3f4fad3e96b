// Owns sending long output through $PAGER when stdout is a terminal.
/** What paging needs of the command's context. */
export interface PagerContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; rows?: number };
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  warn(text: string): void;
}

export async function page(ctx: PagerContext, text: string): Promise<void> {
  const rows = ctx.stdout.rows ?? 24;
  const pager = ctx.env.PAGER ?? "less -FRX";
  if (!ctx.stdout.isTTY || pager === "" || pager === "cat" || text.split("\n").length < rows) {
    ctx.out(text);
    return;
  }
  // Loaded here: child_process costs every command that never pages some 3 ms.
  const { spawn } = await import("node:child_process");
  await new Promise<void>((resolve) => {
    const child = spawn(pager, { shell: true, stdio: ["pipe", "inherit", "inherit"] });
    child.on("error", () => {
      ctx.out(text);
      resolve();
    });
    child.on("close", (code) => {
      // 127: the shell found no such pager. Show the text anyway and say why.
      if (code === 127) {
        ctx.warn(`the pager '${pager}' was not found; printing directly (set $PAGER, or PAGER=cat)`);
        ctx.out(text);
      }
      resolve();
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(text.endsWith("\n") ? text : text + "\n");
  });
}
