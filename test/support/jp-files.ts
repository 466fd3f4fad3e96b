// A JP workspace's configuration, written as dcdpr/jp writes its own: data for the tests of
// init --from-jp and of jp in a JP workspace.

/** A JP workspace as dcdpr/jp writes its own (.jp/config.toml and the files it extends). */
export const JP_FILES: Record<string, string> = {
  ".jp/config.toml": `
extends = ["config/personas/default.toml", "mcp/tools/**/*.toml"]
config_load_paths = [".jp/config"]

[providers.llm]
anthropic.beta_headers = ["interleaved-thinking-2025-05-14"]

[providers.mcp.bookworm]
type = "stdio"
command = "just"
arguments = ["serve-bookworm"]

[plugins.command.ticket]
run = "unattended"

[providers.llm.aliases]
sonnet = "anthropic/claude-sonnet-5"

[style.reasoning]
display = "full"

[conversation.tools.'*']
run = "ask"

[[conversation.compaction.rules]]
keep_last = 3
reasoning = "strip"

[[conversation.compaction.rules]]
keep_last = "forever"
`,
  ".jp/config/personas/default.toml": `
[assistant.model]
id = "sonnet"
parameters.reasoning.effort = "high"

[assistant.system_prompt]
strategy = "replace"
value = "You are Jean-Pierre."

[[assistant.system_prompt_sections]]
position = 2
title = "Style"
content = "Be brief."

[[assistant.system_prompt_sections]]
position = 1
content = "Be accurate."
`,
  ".jp/config/dev.toml": `
extends = ["knowledge/testing.toml"]

[style]
reasoning.display = "full"

[assistant]
name = "Software Developer"

[assistant.model]
id = "sonnet"
parameters.reasoning.effort = "xhigh"

[[assistant.instructions]]
title = "Development Workflow"
items = ["Read before you write.", "Run the tests."]
`,
  ".jp/config/knowledge/testing.toml": `
[[assistant.system_prompt_sections]]
tag = "knowledge"
title = "Testing"
content = "A test must be able to fail."
position = -5
`,
  ".jp/mcp/tools/rust/crate_readme.toml": `
[conversation.tools.rust_crate_readme]
enable = false
run = "unattended"
source = "mcp.bookworm.crate_readme"
summary = "Get a crate's README as markdown."
description = "Fetches the README."
examples = '{"crate_name": "anyhow"}'

[conversation.tools.rust_crate_readme.style]
inline_results = "off"

[conversation.tools.rust_crate_readme.parameters.crate_name]
summary = "Exact name of the crate."
`,
  ".jp/mcp/tools/rfd/abandon.toml": `
[conversation.tools.rfd_abandon]
source = "local"
command = "just rfd-abandon {{tool.arguments.nnn}}"
compaction = "strip"

[conversation.tools.rfd_abandon.parameters.nnn]
type = "string"
required = true
summary = "ID of the RFD."
`,
  ".jp/mcp/tools/fs/read_file.toml": `
[conversation.tools.fs_read_file]
source = "local"
command = "just serve-tools {{context}} {{tool}}"
run = "unattended"
`,
};

/** The instruction JP adds to its prompt when tools are offered, as JP renders it (that workspace offers rfd_abandon). */
export const JP_TOOL_USAGE =
  '<instruction title="Tool Usage">\nHow to leverage the tools available to you.\n\n- Use all the tools available to you to give the best possible answer.\n- Verify the tool name, description and parameters are correct.\n- Even if you\'ve reasoned yourself towards a solution, use any available tool to verify your answer.\n</instruction>';

/**
 * The system prompt JP would use in that workspace with `-c dev`: the
 * persona's sections and instructions merged with the workspace's, by position.
 */
export const JP_DEV_PROMPT = [
  "You are Jean-Pierre.",
  '<knowledge title="Testing">\nA test must be able to fail.\n</knowledge>',
  '<instruction title="Development Workflow">\n- Read before you write.\n- Run the tests.\n</instruction>',
  JP_TOOL_USAGE,
  "Be accurate.",
  "# Style\n\nBe brief.",
].join("\n\n");
