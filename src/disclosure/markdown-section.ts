import { toolsFrom, type ToolSource } from "../tools/tool-sources.js";
import type { AnyTool } from "../tools/tool.js";
import { SectionVisibility, type VisibilityRule } from "./section-visibility.js";
import { PromptTemplateError } from "./prompt-template-error.js";

/** Options of a {@link MarkdownSection}. */
export interface MarkdownSectionOptions {
  /** The section's heading. */
  readonly title: string;
  /** Key of this section among its siblings: letters, digits, `-` and `_` (dotted paths are built from them). */
  readonly key: string;
  /** The full content; `${name}` placeholders are filled from the template parameters. */
  readonly template: string;
  /** Shown instead of the content while the section is summarized. Required for a `SUMMARY` section. */
  readonly summary?: string | undefined;
  /** Default `FULL`. */
  readonly visibility?: VisibilityRule | undefined;
  /** Tools offered only while this section is shown in full: `defineTool` tools or `@LlmTool` objects. */
  readonly tools?: readonly ToolSource[] | undefined;
  /** Nested sections, in order (keyed `parent.child`); hidden while this one is summarized. */
  readonly children?: readonly MarkdownSection[] | undefined;
  /** Replaces the standard "this section is summarized" suffix; `${section_key}` is substituted. */
  readonly summarySuffix?: string | undefined;
}

const KEY = /^[a-zA-Z0-9_-]+$/;

/** A section of a {@link PromptTemplate}. Its tools are bound once, when the section is created. */
export class MarkdownSection {
  /** The section's heading. */
  readonly title: string;
  /** Its key among its siblings (the dotted key joins its ancestors'). */
  readonly key: string;
  /** The full content, with `${name}` placeholders. */
  readonly template: string;
  /** Shown instead of the content while the section is summarized. */
  readonly summary?: string;
  /** `FULL` or `SUMMARY`, or a function of the template parameters that says which. */
  readonly visibility: VisibilityRule;
  /** The tools offered only while it is shown in full, bound when it was created. */
  readonly tools: readonly AnyTool[];
  /** Nested sections, in order. */
  readonly children: readonly MarkdownSection[];
  /** Replaces the standard "this section is summarized" suffix; absent: the standard one. */
  readonly summarySuffix?: string;

  constructor(options: MarkdownSectionOptions) {
    if (!KEY.test(options.key)) {
      throw new PromptTemplateError(
        `Section "${options.title}": key "${options.key}" may only hold letters, digits, - and _ (no dots)`,
      );
    }
    const visibility = options.visibility ?? SectionVisibility.FULL;
    if (visibility === SectionVisibility.SUMMARY && !options.summary?.trim()) {
      throw new PromptTemplateError(`Section "${options.key}" is SUMMARY but has no summary`);
    }
    const siblings = new Set<string>();
    for (const child of options.children ?? []) {
      if (siblings.has(child.key))
        throw new PromptTemplateError(`Section "${options.key}" has two children keyed "${child.key}"`);
      siblings.add(child.key);
    }
    this.title = options.title;
    this.key = options.key;
    this.template = options.template;
    this.summary = options.summary;
    this.visibility = visibility;
    this.tools = toolsFrom(options.tools ?? [], []);
    this.children = options.children ?? [];
    this.summarySuffix = options.summarySuffix;
  }
}
