// Owns what a tool's `enable` says, in every form JP and jp accept: a bool,
// JP's strings ("on", "off", "explicit", "always") and JP's table
// `{ state, allow_toggle }`, resolved against `[conversation.tools.'*']`.
import type { ToolConfig } from "./schema.js";

/** Which `-t`/`-T` may flip a tool's state: any, none, or only one that names it. */
export type AllowToggle = "any" | "never" | "if_named" | "if_named_or_group";

/** Whether a tool is offered, and which `-t`/`-T` may change that. */
export interface Enable {
  state: boolean;
  allowToggle: AllowToggle;
}

type EnableSetting = NonNullable<ToolConfig["enable"]>;

const ALLOW_TOGGLES: readonly AllowToggle[] = ["any", "never", "if_named", "if_named_or_group"];

/**
 * The fields an `enable` value sets; a field left unset comes from the
 * defaults. It also reads a raw value of a JP file not yet checked: what is
 * not one of the forms sets nothing.
 */
export function enableFields(setting: unknown): Partial<Enable> {
  if (typeof setting === "boolean") return { state: setting, allowToggle: "any" };
  switch (setting) {
    case "on":
      return { state: true, allowToggle: "any" };
    case "off":
      return { state: false, allowToggle: "any" };
    // Off until a -t names it.
    case "explicit":
      return { state: false, allowToggle: "if_named" };
    // On, and no -T turns it off.
    case "always":
      return { state: true, allowToggle: "never" };
  }
  if (typeof setting !== "object" || setting === null) return {};
  const state: unknown = Reflect.get(setting, "state");
  const toggle: unknown = Reflect.get(setting, "allow_toggle");
  const allowToggle = ALLOW_TOGGLES.find((t) => t === toggle);
  return {
    ...(typeof state === "boolean" ? { state } : {}),
    ...(allowToggle === undefined ? {} : { allowToggle }),
  };
}

/** A tool's `enable` against the `*` defaults' (as JP resolves it: each field from the tool, the defaults, then on and toggleable). */
export function resolveEnable(own: EnableSetting | undefined, defaults?: EnableSetting): Enable {
  const mine = enableFields(own);
  const fallback = enableFields(defaults);
  return {
    state: mine.state ?? fallback.state ?? true,
    allowToggle: mine.allowToggle ?? fallback.allowToggle ?? "any",
  };
}

/** Whether a `-t`/`-T` that names the tool (or not) may flip it. */
export function acceptsToggle(enable: Enable, named: boolean): boolean {
  return enable.allowToggle === "any" || (named && enable.allowToggle !== "never");
}
