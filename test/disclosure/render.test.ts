import { describe, expect, it } from "vitest";
import { MarkdownSection, PromptTemplate, SectionVisibility } from "entity-tools";

const guidelines = (
  visibility: SectionVisibility,
  childVisibility: SectionVisibility = SectionVisibility.FULL,
) =>
  new PromptTemplate({
    ns: "test",
    key: "golden",
    sections: [
      new MarkdownSection({ key: "intro", title: "Introduction", template: "You review code for ${team}." }),
      new MarkdownSection({
        key: "guidelines",
        title: "Guidelines",
        template: "Apply every guideline.",
        summary: "How we write and review code.",
        visibility,
        children: [
          new MarkdownSection({
            key: "code-style",
            title: "Code style",
            template: "Prefer small functions.",
            summary: "Style rules.",
            visibility: childVisibility,
          }),
          new MarkdownSection({ key: "reviews", title: "Reviews", template: "Two approvals." }),
        ],
      }),
    ],
  });

const renderAll = (template: PromptTemplate, params = { team: "payments" }) =>
  template.render(params, template.visibilityOf(params));

describe("rendering", () => {
  it("numbers sections, shows dotted keys, and fills placeholders (all FULL)", () => {
    expect(renderAll(guidelines(SectionVisibility.FULL))).toBe(
      [
        "# 1 Introduction (intro)",
        "",
        "You review code for payments.",
        "",
        "# 2 Guidelines (guidelines)",
        "",
        "Apply every guideline.",
        "",
        "## 2.1 Code style (guidelines.code-style)",
        "",
        "Prefer small functions.",
        "",
        "## 2.2 Reviews (guidelines.reviews)",
        "",
        "Two approvals.",
      ].join("\n"),
    );
  });

  it("a summarized parent shows its summary and the suffix listing its subsections, not its children", () => {
    expect(renderAll(guidelines(SectionVisibility.SUMMARY))).toBe(
      [
        "# 1 Introduction (intro)",
        "",
        "You review code for payments.",
        "",
        "# 2 Guidelines (guidelines)",
        "",
        "How we write and review code.",
        "",
        "---",
        '[This section is summarized. To view full content, call `read_section` with key "guidelines".]',
        '[Subsections: "guidelines.code-style", "guidelines.reviews"]',
      ].join("\n"),
    );
  });

  it("a summarized child uses its dotted key in the suffix", () => {
    expect(renderAll(guidelines(SectionVisibility.FULL, SectionVisibility.SUMMARY))).toContain(
      [
        "## 2.1 Code style (guidelines.code-style)",
        "",
        "Style rules.",
        "",
        "---",
        '[This section is summarized. To view full content, call `read_section` with key "guidelines.code-style".]',
        "",
        "## 2.2 Reviews",
      ].join("\n"),
    );
  });

  it("a custom summarySuffix replaces the standard one, with ${section_key} substituted", () => {
    const template = new PromptTemplate({
      ns: "t",
      key: "k",
      sections: [
        new MarkdownSection({
          key: "faq",
          title: "FAQ",
          template: "Long answers.",
          summary: "Common questions.",
          visibility: SectionVisibility.SUMMARY,
          summarySuffix: "(Ask for ${section_key} when needed.)",
        }),
      ],
    });
    expect(renderAll(template)).toBe("# 1 FAQ (faq)\n\nCommon questions.\n\n(Ask for faq when needed.)");
  });

  it("visibility can be a function of the params", () => {
    const template = new PromptTemplate({
      ns: "t",
      key: "k",
      sections: [
        new MarkdownSection({
          key: "expert",
          title: "Expert notes",
          template: "Deep details.",
          summary: "Details for experts.",
          visibility: (params) => (params.expert ? SectionVisibility.FULL : SectionVisibility.SUMMARY),
        }),
      ],
    });
    expect(template.render({ expert: true }, template.visibilityOf({ expert: true }))).toContain(
      "Deep details.",
    );
    expect(template.render({ expert: false }, template.visibilityOf({ expert: false }))).toContain(
      "Details for experts.",
    );
  });

  it("precedence: run override, then caller override, then the section's own visibility", () => {
    const template = guidelines(SectionVisibility.SUMMARY);
    const node = template.find("guidelines")!;
    expect(template.visibilityOf({})(node)).toBe("SUMMARY");
    expect(template.visibilityOf({}, undefined, { guidelines: "FULL" })(node)).toBe("FULL");
    expect(template.visibilityOf({}, { guidelines: "SUMMARY" }, { guidelines: "FULL" })(node)).toBe(
      "SUMMARY",
    );
  });

  it("rejects SUMMARY without a summary, bad keys, duplicate keys and missing parameters", () => {
    expect(
      () =>
        new MarkdownSection({ key: "x", title: "X", template: "t", visibility: SectionVisibility.SUMMARY }),
    ).toThrow('Section "x" is SUMMARY but has no summary');
    expect(() => new MarkdownSection({ key: "a.b", title: "X", template: "t" })).toThrow(
      /may only hold letters/,
    );
    expect(
      () =>
        new PromptTemplate({
          ns: "t",
          key: "k",
          sections: [
            new MarkdownSection({ key: "a", title: "A", template: "" }),
            new MarkdownSection({ key: "a", title: "B", template: "" }),
          ],
        }),
    ).toThrow('PromptTemplate t.k: two sections keyed "a"');
    const template = guidelines(SectionVisibility.FULL);
    expect(() => template.render({}, template.visibilityOf({}))).toThrow(
      'PromptTemplate test.golden section "intro" uses ${team} but no parameter "team" was given',
    );
  });
});
