import type { SectionNode } from "./section-node.js";
import { SectionVisibility, type PromptParams } from "./section-visibility.js";
import { PromptTemplateError } from "./prompt-template-error.js";

type VisibilityOf = (node: SectionNode) => SectionVisibility;

/** Renders sections at their visibility; children of a summarized section are not rendered. */
export function renderSections(
  nodes: readonly SectionNode[],
  params: PromptParams,
  visibility: VisibilityOf,
  templateName: string,
): string {
  return nodes.map((node) => renderSection(node, params, visibility, templateName)).join("\n\n");
}

/** One section: its heading, then its content (and children) or its summary and the suffix. */
export function renderSection(
  node: SectionNode,
  params: PromptParams,
  visibility: VisibilityOf,
  templateName: string,
): string {
  const heading = `${"#".repeat(node.depth)} ${node.number} ${node.section.title} (${node.key})`;
  const fill = (text: string) =>
    fillPlaceholders(text, params, `PromptTemplate ${templateName} section "${node.key}"`);
  if (visibility(node) === SectionVisibility.SUMMARY) {
    return [heading, fill(node.section.summary ?? ""), summarySuffix(node)].join("\n\n");
  }
  const parts = [heading, fill(node.section.template)];
  if (node.children.length > 0) parts.push(renderSections(node.children, params, visibility, templateName));
  return parts.join("\n\n");
}

/** The pointer a summarized section ends with: one form for every section, tools or not. */
export function summarySuffix(node: SectionNode): string {
  if (node.section.summarySuffix !== undefined)
    return node.section.summarySuffix.replaceAll("${section_key}", node.key);
  const lines = [
    "---",
    `[This section is summarized. To view full content, call \`read_section\` with key "${node.key}".]`,
  ];
  if (node.children.length > 0) {
    lines.push(`[Subsections: ${node.children.map((c) => `"${c.key}"`).join(", ")}]`);
  }
  return lines.join("\n");
}

/** Fills `${name}` placeholders; a placeholder without a parameter is an error, not silent text. */
function fillPlaceholders(text: string, params: PromptParams, where: string): string {
  return text.replace(/\$\{([A-Za-z_][\w.-]*)\}/g, (_match, name: string) => {
    // Own or inherited from the caller's class, never Object.prototype's (`${toString}` is no parameter).
    if (!(name in params) || (name in Object.prototype && !Object.hasOwn(params, name)))
      throw new PromptTemplateError(`${where} uses \${${name}} but no parameter "${name}" was given`);
    return String(params[name]);
  });
}
