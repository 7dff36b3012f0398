import type { AnyTool } from "../tools/tool.js";
import type { MarkdownSection } from "./markdown-section.js";
import { renderSections } from "./render-sections.js";
import { placeSections, selfAndAncestors, type SectionNode } from "./section-node.js";
import { SectionVisibility, type PromptParams, type VisibilityOverrides } from "./section-visibility.js";
import { PromptTemplateError } from "./prompt-template-error.js";

/** Options of a {@link PromptTemplate}. */
export interface PromptTemplateOptions {
  /** Namespace and key name the template in errors. */
  readonly ns: string;
  readonly key: string;
  readonly sections: readonly MarkdownSection[];
}

/**
 * The visibility of each section for one render: what {@link PromptTemplate.visibilityOf} decides, and
 * what `render`, `isOpen`, `openTools` and `hasSummarized` read.
 */
export type VisibilityOf = (node: SectionNode) => SectionVisibility;

/**
 * A system prompt made of sections that can be summarized, with dotted keys for nested sections.
 * Rendering numbers the sections (`## 2.1 Code style (guidelines.code-style)`); a summarized section shows
 * its summary and a suffix pointing at `read_section`, hides its children, and withholds its tools.
 */
export class PromptTemplate {
  readonly ns: string;
  readonly key: string;
  readonly nodes: readonly SectionNode[];
  private readonly byKey = new Map<string, SectionNode>();

  constructor(options: PromptTemplateOptions) {
    this.ns = options.ns;
    this.key = options.key;
    this.nodes = placeSections(options.sections);
    const walk = (nodes: readonly SectionNode[]) => {
      for (const node of nodes) {
        if (this.byKey.has(node.key))
          throw new PromptTemplateError(`PromptTemplate ${this.name}: two sections keyed "${node.key}"`);
        this.byKey.set(node.key, node);
        walk(node.children);
      }
    };
    walk(this.nodes);
  }

  /** `ns.key`, for messages. */
  get name(): string {
    return `${this.ns}.${this.key}`;
  }

  /** Every dotted key, in document order. */
  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** The section with this dotted key, if any. */
  find(sectionKey: string): SectionNode | undefined {
    return this.byKey.get(sectionKey);
  }

  /**
   * The visibility of each section: store override, then caller overrides, then the section's own rule.
   * A `SUMMARY` reached through a parameter-dependent rule must still have a summary.
   */
  visibilityOf(
    params: PromptParams,
    ...overrides: readonly (VisibilityOverrides | undefined)[]
  ): VisibilityOf {
    return (node) => {
      for (const layer of overrides) {
        const chosen = layer && Object.hasOwn(layer, node.key) ? layer[node.key] : undefined;
        if (chosen) return this.checked(node, chosen);
      }
      const rule = node.section.visibility;
      return this.checked(node, typeof rule === "function" ? rule(params) : rule);
    };
  }

  /** The rendered Markdown. */
  render(params: PromptParams, visibility: VisibilityOf): string {
    return renderSections(this.nodes, params, visibility, this.name);
  }

  /** Whether the section and all its ancestors are shown in full: only then are its tools offered. */
  isOpen(node: SectionNode, visibility: VisibilityOf): boolean {
    return selfAndAncestors(node).every((n) => visibility(n) === SectionVisibility.FULL);
  }

  /** Tools of every open section, in document order. */
  openTools(visibility: VisibilityOf): AnyTool[] {
    return [...this.byKey.values()].filter((n) => this.isOpen(n, visibility)).flatMap((n) => n.section.tools);
  }

  /** Whether any section is summarized (then `read_section` is offered). */
  hasSummarized(visibility: VisibilityOf): boolean {
    return [...this.byKey.values()].some((n) => visibility(n) === SectionVisibility.SUMMARY);
  }

  private checked(node: SectionNode, visibility: SectionVisibility): SectionVisibility {
    if (visibility === SectionVisibility.SUMMARY && !node.section.summary?.trim()) {
      throw new PromptTemplateError(
        `PromptTemplate ${this.name}: section "${node.key}" is SUMMARY but has no summary`,
      );
    }
    return visibility;
  }
}
