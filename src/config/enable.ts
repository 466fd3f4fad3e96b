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

/** The fields an `enable` value sets; a field left unset comes from the defaults. */
function fieldsOf(setting: EnableSetting | undefined): Partial<Enable> {
  if (setting === undefined) return {};
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
  return {
    ...(setting.state === undefined ? {} : { state: setting.state }),
    ...(setting.allow_toggle === undefined ? {} : { allowToggle: setting.allow_toggle }),
  };
}

/** A tool's `enable` against the `*` defaults' (as JP resolves it: each field from the tool, the defaults, then on and toggleable). */
export function resolveEnable(own: EnableSetting | undefined, defaults?: EnableSetting): Enable {
  const mine = fieldsOf(own);
  const fallback = fieldsOf(defaults);
  return {
    state: mine.state ?? fallback.state ?? true,
    allowToggle: mine.allowToggle ?? fallback.allowToggle ?? "any",
  };
}

/** Whether a `-t`/`-T` that names the tool (or not) may flip it. */
export function acceptsToggle(enable: Enable, named: boolean): boolean {
  return enable.allowToggle === "any" || (named && enable.allowToggle !== "never");
}
