// JP's system prompt as JP renders it: the expectations are JP's own tests of SectionConfig::render and
// InstructionsConfig::to_section (jp_config's sections_tests.rs and its instruction snapshots), and of its
// MergeableVec and MergeableString strategies.
import { describe, expect, it } from "vitest";
import { EMPTY_JP_PROMPT, mergeJpPrompt, renderJpPrompt, renderSection } from "../../src/config/jp-prompt.js";

const rendered = (assistant: Record<string, unknown>) =>
  renderJpPrompt(mergeJpPrompt(EMPTY_JP_PROMPT, { assistant }));

describe("JP's sections", () => {
  it("render by tag and title as JP renders them", () => {
    const content = "- Be concise\n- Be clear";
    expect(renderSection({ content, tag: "instruction", title: "Guidelines", position: 0 })).toBe(
      '<instruction title="Guidelines">\n- Be concise\n- Be clear\n</instruction>',
    );
    expect(renderSection({ content: "some content", tag: "context", position: 0 })).toBe(
      "<context>\nsome content\n</context>",
    );
    expect(renderSection({ content: "some content", title: "My Section", position: 0 })).toBe(
      "# My Section\n\nsome content",
    );
    expect(renderSection({ content: "raw content", position: 0 })).toBe("raw content");
  });

  it("wrap content that would break the tag in CDATA, splitting a ]]> inside it, and escape the title", () => {
    expect(renderSection({ content: "foo <bar> baz", tag: "data", position: 0 })).toBe(
      "<data>\n<![CDATA[\nfoo <bar> baz\n]]>\n</data>",
    );
    expect(renderSection({ content: "a ]]> b & c", tag: "d", title: 'x "y" <z>', position: 0 })).toBe(
      '<d title="x &quot;y&quot; &lt;z&gt;">\n<![CDATA[\na ]]]]><![CDATA[> b & c\n]]>\n</d>',
    );
  });
});

describe("JP's instructions", () => {
  it("become <instruction> sections with their description, items and examples", () => {
    expect(
      rendered({
        instructions: [
          {
            title: "foo",
            description: "bar",
            items: ["foo", "bar"],
            examples: [
              "example one",
              { good: "good", bad: "bad", reason: "because" },
              { good: "quux", bad: "quuz" },
            ],
          },
        ],
      }),
    ).toBe(
      '<instruction title="foo">\nbar\n\n- foo\n- bar\n\n**Examples**\n\nexample one\n\nGood: good\nBad: bad\nReason: because\n\nGood: quux\nBad: quuz\n</instruction>',
    );
    expect(rendered({ instructions: [{ title: "foo", items: ["bar <test>bar</test>"] }] })).toBe(
      '<instruction title="foo">\n<![CDATA[\n- bar <test>bar</test>\n]]>\n</instruction>',
    );
  });

  it("follow the prompt, sorted with the sections by position, sections first among equals", () => {
    expect(
      rendered({
        system_prompt: "You are Jean-Pierre.",
        system_prompt_sections: [
          { content: "late", tag: "late", position: 5 },
          { content: "early", position: -1 },
          { content: "even", title: "Even" },
        ],
        instructions: [{ title: "rules", items: ["one"] }],
      }),
    ).toBe(
      'You are Jean-Pierre.\n\nearly\n\n# Even\n\neven\n\n<instruction title="rules">\n- one\n</instruction>\n\n<late>\nlate\n</late>',
    );
  });
});

describe("JP's Tool Usage instruction", () => {
  it("is added, as JP's build_sections adds it, when the config offers a tool, and sorted with the others", () => {
    const config = {
      assistant: { system_prompt: "P", system_prompt_sections: [{ content: "late", position: 1 }] },
      conversation: { tools: { "*": { run: "ask" }, fs_read_file: { source: "local" } } },
    };
    expect(renderJpPrompt(mergeJpPrompt(EMPTY_JP_PROMPT, config))).toBe(
      [
        "P",
        '<instruction title="Tool Usage">\nHow to leverage the tools available to you.\n\n- Use all the tools available to you to give the best possible answer.\n- Verify the tool name, description and parameters are correct.\n- Even if you\'ve reasoned yourself towards a solution, use any available tool to verify your answer.\n</instruction>',
        "late",
      ].join("\n\n"),
    );
    // Only "*", or tools all disabled: no tools are offered, and no instruction is added.
    const none = { ...config, conversation: { tools: { "*": { run: "ask" }, off: { enable: false } } } };
    expect(renderJpPrompt(mergeJpPrompt(EMPTY_JP_PROMPT, none))).toBe("P\n\nlate");
  });
});

describe("JP's merge strategies", () => {
  it("append a later list, and replace, prepend or append as a later table says", () => {
    const first = mergeJpPrompt(EMPTY_JP_PROMPT, { assistant: { system_prompt_sections: ["a"] } });
    expect(renderJpPrompt(mergeJpPrompt(first, { assistant: { system_prompt_sections: ["b"] } }))).toBe(
      "a\n\nb",
    );
    const replaced = { assistant: { system_prompt_sections: { strategy: "replace", value: ["b"] } } };
    expect(renderJpPrompt(mergeJpPrompt(first, replaced))).toBe("b");
    const prepended = { assistant: { system_prompt_sections: { strategy: "prepend", value: ["b"] } } };
    expect(renderJpPrompt(mergeJpPrompt(first, prepended))).toBe("b\n\na");
    // A default marked discard_when_merged gives way to whatever comes next.
    const defaults = mergeJpPrompt(EMPTY_JP_PROMPT, {
      assistant: { instructions: { value: [{ title: "default" }], discard_when_merged: true } },
    });
    expect(
      renderJpPrompt(mergeJpPrompt(defaults, { assistant: { instructions: [{ title: "mine" }] } })),
    ).toBe('<instruction title="mine">\n\n</instruction>');
  });

  it("replace the prompt with a string, and append or prepend it with JP's named separators", () => {
    const first = mergeJpPrompt(EMPTY_JP_PROMPT, { assistant: { system_prompt: "one" } });
    expect(renderJpPrompt(mergeJpPrompt(first, { assistant: { system_prompt: "two" } }))).toBe("two");
    const joined = (strategy: string, separator: string) =>
      renderJpPrompt(
        mergeJpPrompt(first, { assistant: { system_prompt: { strategy, separator, value: "two" } } }),
      );
    // As jp_config renders them: a paragraph is a blank line, never the word.
    expect(joined("append", "paragraph")).toBe("one\n\ntwo");
    expect(joined("append", "line")).toBe("one\ntwo");
    expect(joined("prepend", "space")).toBe("two one");
    expect(joined("append", "none")).toBe("onetwo");
  });
});
