import type { MarkdownSection } from "./markdown-section.js";

/** A section placed in its template: dotted key, heading number and depth. */
export interface SectionNode {
  /** The section itself. */
  readonly section: MarkdownSection;
  /** `guidelines.code-style` */
  readonly key: string;
  /** `2.1` */
  readonly number: string;
  /** 1 for top-level sections. */
  readonly depth: number;
  /** The enclosing section's node; absent at the top level. */
  readonly parent?: SectionNode;
  /** Its children's nodes, in order. */
  readonly children: readonly SectionNode[];
}

/** Places sections and their children, depth first, numbering from 1. */
export function placeSections(sections: readonly MarkdownSection[], parent?: SectionNode): SectionNode[] {
  return sections.map((section, index) => {
    const node: { -readonly [K in keyof SectionNode]: SectionNode[K] } = {
      section,
      key: parent ? `${parent.key}.${section.key}` : section.key,
      number: parent ? `${parent.number}.${index + 1}` : `${index + 1}`,
      depth: parent ? parent.depth + 1 : 1,
      parent,
      children: [],
    };
    node.children = placeSections(section.children, node);
    return node;
  });
}

/** The node and its ancestors, nearest first. */
export function selfAndAncestors(node: SectionNode): SectionNode[] {
  const chain: SectionNode[] = [];
  for (let n: SectionNode | undefined = node; n; n = n.parent) chain.push(n);
  return chain;
}
