// The workspace's `state.json`: the active conversation, the workspace's and
// each terminal session's.
import * as path from "node:path";
import type { Clock } from "./clock.js";
import { makeDirWithin, NotJpsFileError, readJsonFile, writeJsonAtomic } from "./files.js";
import type { Workspace } from "./workspace.js";
import { isJsonObject } from "../events/index.js";
import { sessionEnded } from "./session.js";

const STATE_FILE = "state.json";
/** How many terminal sessions' active conversations are kept, the most recent first. */
const MAX_SESSIONS = 64;

type Sessions = Record<string, { active: string; at: string } | undefined>;

/** The terminal sessions' active conversations in `state.json`, as far as they can be read. */
function sessionsOf(state: Record<string, unknown>): Sessions {
  const out: Sessions = {};
  if (!isJsonObject(state.sessions)) return out;
  for (const [session, entry] of Object.entries(state.sessions))
    if (isJsonObject(entry) && typeof entry.active === "string")
      out[session] = { active: entry.active, at: typeof entry.at === "string" ? entry.at : "" };
  return out;
}

/** The sessions but those `drop` picks. */
function withoutSessions(
  sessions: Sessions,
  drop: (session: string, entry: { active: string; at: string }) => boolean,
): Sessions {
  return Object.fromEntries(
    Object.entries(sessions).filter(([session, entry]) => entry !== undefined && !drop(session, entry)),
  );
}

/** The sessions worth keeping: not surely over, and only the most recent few. */
function keptSessions(sessions: Sessions): Sessions {
  const live = Object.entries(sessions).filter(
    (entry): entry is [string, { active: string; at: string }] =>
      entry[1] !== undefined && !sessionEnded(entry[0]),
  );
  live.sort((a, b) => (a[1].at < b[1].at ? 1 : a[1].at > b[1].at ? -1 : 0));
  return Object.fromEntries(live.slice(0, MAX_SESSIONS));
}

/** The workspace's `state.json`, read and written for one terminal session. */
export class WorkspaceState {
  constructor(
    private readonly workspace: Workspace,
    private readonly clock: Clock,
    private readonly options: {
      /** The terminal session jp runs in: it keeps an active conversation of its own. */
      session?: string;
      /** Called once when `state.json` cannot be read (see state()). */
      onBrokenState?: (file: string) => void;
    },
  ) {}

  /**
   * The active conversation: this terminal session's (JP's RFD 020), else the
   * workspace's, the one made active last in any terminal (`recentId`).
   */
  activeId(): string | undefined {
    const session = this.options.session;
    const mine = session === undefined ? undefined : sessionsOf(this.state())[session]?.active;
    return mine ?? this.recentId();
  }

  /** The conversation made active last in the workspace, in whichever terminal (JP's `r`). */
  recentId(): string | undefined {
    const active = this.state().active;
    return typeof active === "string" ? active : undefined;
  }

  /**
   * What `state.json` holds. One that cannot be read as a JSON object (empty,
   * cut short, edited by hand) is said once and counts as no active
   * conversation; the next setActive replaces it, and doctor resets it.
   */
  state(): Record<string, unknown> {
    const state = this.readState();
    if (state !== "broken") return state;
    if (!this.stateReported) {
      this.stateReported = true;
      this.options.onBrokenState?.(path.join(this.workspace.localDir, STATE_FILE));
    }
    return {};
  }
  private stateReported = false;

  private readState(): Record<string, unknown> | "broken" {
    try {
      const state = readJsonFile<unknown>(path.join(this.workspace.localDir, STATE_FILE)) ?? {};
      return isJsonObject(state) ? state : "broken";
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof NotJpsFileError) return "broken";
      throw error;
    }
  }

  /** Whether `state.json` exists but cannot be read as a JSON object. */
  isBroken(): boolean {
    return this.readState() === "broken";
  }

  /** Replace a broken `state.json` with an empty one (no active conversation); whether it was broken. */
  reset(): boolean {
    const broken = this.isBroken();
    if (broken) writeJsonAtomic(path.join(this.workspace.localDir, STATE_FILE), {});
    return broken;
  }

  /** Make `id` the active conversation of this terminal session and of the workspace; undefined: none. */
  set(id: string | undefined): void {
    const state = this.state();
    const session = this.options.session;
    const sessions = sessionsOf(state);
    // Every `jp q` names its conversation active: rewriting (and syncing) an unchanged file is work for nothing.
    if (state.active === id && (session === undefined || sessions[session]?.active === id)) return;
    const others = withoutSessions(sessions, (s) => s === session);
    const mine =
      session !== undefined && id !== undefined
        ? { [session]: { active: id, at: this.clock.now().toISOString() } }
        : {};
    this.writeState({ ...state, active: id, sessions: keptSessions({ ...others, ...mine }) });
  }

  /** No terminal has `id` active any more (it was removed or archived). */
  forget(id: string): void {
    const state = this.state();
    const sessions = sessionsOf(state);
    const kept = withoutSessions(sessions, (_, entry) => entry.active === id);
    if (state.active !== id && Object.keys(kept).length === Object.keys(sessions).length) return;
    this.writeState({ ...state, active: state.active === id ? undefined : state.active, sessions: kept });
  }

  private writeState(state: Record<string, unknown>): void {
    // A JP workspace's state is in the user's cache folder, made on first use.
    makeDirWithin(this.workspace.localRoot, this.workspace.localDir);
    writeJsonAtomic(path.join(this.workspace.localDir, STATE_FILE), state);
  }
}
