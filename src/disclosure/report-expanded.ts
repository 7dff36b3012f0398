import type { RunEvents } from "../events/run-events.js";
import type { VisibilityExpandedEvent } from "../events/tool-loop-event.js";
import type { PromptTemplate } from "./prompt-template.js";
import { selfAndAncestors, type SectionNode } from "./section-node.js";

/** What one read expanded: its sections, the one read first, and every tool it unlocked. */
export interface Expansion {
  /** By dotted key: the section read, then its summarized ancestors (each read's in turn for several). */
  readonly sectionKeys: readonly string[];
  /** By name, all of the expansion's. */
  readonly unlockedTools: readonly string[];
}

/**
 * Tells observers of an expansion: one `VisibilityExpanded` for each section it shows in full, in order,
 * naming the tools that came with that section, the one place both a running conversation's expansion and a
 * restart's report it. A tool goes to the nearest of the sections at or above the one holding it: a section
 * shown in full shows its FULL descendants with it, and their tools come with it, but a summarized ancestor
 * expanded by a nested read does not take the tools of the section read. Each tool is named once; one that no
 * section of `template` holds goes to the section read.
 */
export function reportExpanded(
  events: RunEvents,
  template: PromptTemplate | undefined,
  expansion: Expansion,
  mode: VisibilityExpandedEvent["mode"],
): void {
  const holders = new Map<string, SectionNode>();
  const walk = (nodes: readonly SectionNode[]): void => {
    for (const node of nodes) {
      for (const tool of node.section.tools) holders.set(tool.name, node);
      walk(node.children);
    }
  };
  walk(template?.nodes ?? []);
  const bySection = new Map(expansion.sectionKeys.map((key) => [key, [] as string[]]));
  const read = expansion.sectionKeys[0];
  for (const name of expansion.unlockedTools) {
    const holder = holders.get(name);
    const key = (holder && selfAndAncestors(holder).find((n) => bySection.has(n.key))?.key) ?? read;
    if (key !== undefined) bySection.get(key)?.push(name);
  }
  for (const [sectionKey, unlockedTools] of bySection)
    events.emit({ type: "VisibilityExpanded", sectionKey, mode, unlockedTools });
}
