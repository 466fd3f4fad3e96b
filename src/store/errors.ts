// Owns the errors the store raises.
import { messageOf, errnoCode, JpError } from "../errors.js";

export class WorkspaceNotFoundError extends JpError {
  constructor(start: string) {
    super("store.no_workspace", `no jp workspace found at or above ${start}`, {
      hint: "run `jp init` here, or pass --workspace DIR",
      exitCode: 2,
    });
  }
}

/** A `.jp/` another user owns, which jp does not adopt until the user trusts it (as git refuses a repository another user owns). */
export class ForeignWorkspaceError extends JpError {
  constructor(root: string, owner: number) {
    super(
      "store.foreign_workspace",
      `the workspace at ${root} belongs to another user (uid ${owner}); jp does not use it`,
      {
        hint: `run \`jp workspace trust ${root}\` if you mean to use it, or \`jp init\` in a folder of your own`,
        exitCode: 2,
      },
    );
  }
}

export class ConversationNotFoundError extends JpError {
  constructor(query: string, hint = "list conversations with `jp conversation ls`") {
    super("store.conversation_not_found", `no conversation matches '${query}'`, { hint });
  }
}

export class AmbiguousConversationError extends JpError {
  constructor(query: string, candidates: string[]) {
    super(
      "store.conversation_ambiguous",
      `'${query}' matches ${candidates.length} conversations: ${candidates.slice(0, 5).join(", ")}`,
      { hint: "give more characters of the id" },
    );
  }
}

export class NoActiveConversationError extends JpError {
  constructor() {
    super("store.no_active", "no active conversation in this workspace", {
      hint: "give an id, or start one with `jp conversation new`",
    });
  }
}

export class MalformedLogError extends JpError {
  constructor(file: string, line: number, reason: string, conversationId?: string) {
    super("store.malformed_line", `${file}:${line}: ${reason}`, {
      hint: `run \`jp conversation doctor${conversationId ? ` ${conversationId}` : ""}\` to quarantine the bad line`,
    });
  }
}

export class ConversationExistsError extends JpError {
  constructor(id: string) {
    super("store.conversation_exists", `a conversation ${id} already exists in this workspace`, {
      hint: `move it away first (jp conversation rm ${id}), or fork it`,
    });
  }
}

export class LockTimeoutError extends JpError {
  constructor(lockPath: string, holder: LockHolder | undefined, waitedMs: number) {
    const who = holder
      ? `process ${holder.pid}${holder.command ? ` (${holder.command})` : ""}`
      : "another process";
    super(
      "store.lock_timeout",
      `gave up after ${Math.round(waitedMs / 100) / 10}s waiting for ${who} holding ${lockPath}`,
      {
        hint: "wait for it to finish, or raise JP_LOCK_TIMEOUT (seconds)",
      },
    );
  }
}

export interface LockHolder {
  pid: number;
  hostname: string;
  acquired_at: string;
  command?: string;
  token: string;
}

export class ImportError extends JpError {
  constructor(message: string, hint?: string) {
    super("store.import", message, { hint });
  }
}

export class SymlinkRefusedError extends JpError {
  constructor(target: string) {
    super("store.symlink", `${target} is a symbolic link; jp does not write through links in a workspace`, {
      hint: "replace the link with the folder or file itself (a cloned repository may carry such links); `jp conversation doctor` moves a link in a conversation's folder aside",
    });
  }
}

export class SpecialFileError extends JpError {
  constructor(target: string) {
    super("store.special_file", `${target} is not a regular file (a FIFO or a device); jp reads only files`, {
      hint: "move it out of the way; a conversation's log is a plain file",
    });
  }
}

export class LogWriteError extends JpError {
  constructor(file: string, cause: unknown, action: "append to" | "write" = "append to") {
    const code = errnoCode(cause);
    const why =
      code === "ENOSPC"
        ? "the disk is full"
        : code === "EFBIG"
          ? "the file size limit was reached"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : messageOf(cause);
    super("store.write_failed", `could not ${action} ${file}: ${why}; nothing of this write was kept`, {
      hint: "free space or raise the limit, then run the command again",
      cause,
    });
  }
}
