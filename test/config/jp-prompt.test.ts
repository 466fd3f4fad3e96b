// JP's system prompt as JP renders it: the expectations are JP's own tests of SectionConfig::render and
// InstructionsConfig::to_section (jp_config's sections_tests.rs and its instruction snapshots), and of its
// MergeableVec and MergeableString strategies.
import { describe, expect, it } from "vitest";
import { EMPTY_JP_PROMPT, mergeJpPrompt, renderJpPrompt, renderSection } from "../../src/config/jp-prompt.js";

const rendered = (assistant: Record<string, unknown>) =>
  renderJpPrompt(mergeJpPrompt(EMPTY_JP_PROMPT, assistant));

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

describe("JP's merge strategies", () => {
  it("append a later list, and replace, prepend or append as a later table says", () => {
    const first = mergeJpPrompt(EMPTY_JP_PROMPT, { system_prompt_sections: ["a"] });
    expect(renderJpPrompt(mergeJpPrompt(first, { system_prompt_sections: ["b"] }))).toBe("a\n\nb");
    const replaced = { system_prompt_sections: { strategy: "replace", value: ["b"] } };
    expect(renderJpPrompt(mergeJpPrompt(first, replaced))).toBe("b");
    const prepended = { system_prompt_sections: { strategy: "prepend", value: ["b"] } };
    expect(renderJpPrompt(mergeJpPrompt(first, prepended))).toBe("b\n\na");
    // A default marked discard_when_merged gives way to whatever comes next.
    const defaults = mergeJpPrompt(EMPTY_JP_PROMPT, {
      instructions: { value: [{ title: "default" }], discard_when_merged: true },
    });
    expect(renderJpPrompt(mergeJpPrompt(defaults, { instructions: [{ title: "mine" }] }))).toBe(
      '<instruction title="mine">\n\n</instruction>',
    );
  });

  it("replace the prompt with a string, and append or prepend it with a separator", () => {
    const first = mergeJpPrompt(EMPTY_JP_PROMPT, { system_prompt: "one" });
    expect(renderJpPrompt(mergeJpPrompt(first, { system_prompt: "two" }))).toBe("two");
    const appended = { system_prompt: { strategy: "append", separator: " + ", value: "two" } };
    expect(renderJpPrompt(mergeJpPrompt(first, appended))).toBe("one + two");
    const prepended = { system_prompt: { strategy: "prepend", separator: "|", value: "zero" } };
    expect(renderJpPrompt(mergeJpPrompt(first, prepended))).toBe("zero|one");
  });
});
