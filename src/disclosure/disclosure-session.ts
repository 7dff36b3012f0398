import type { RunEvents } from "../events/run-events.js";
import { defineTool } from "../tools/define-tool.js";
import type { AnyTool } from "../tools/tool.js";
import type { PromptTemplate, VisibilityOf } from "./prompt-template.js";
import { renderSection } from "./render-sections.js";
import { reportExpanded } from "./report-expanded.js";
import { selfAndAncestors } from "./section-node.js";
import { SectionVisibility, type PromptParams, type VisibilityOverrides } from "./section-visibility.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../strategies/tool-injection-strategy.js";
import { VisibilityExpansionRequired } from "./visibility-expansion-required.js";
import type { VisibilityStore } from "../loop/run/visibility-store.js";

/** The name of the tool that expands a summarized section (`{ section_key }`). */
export const READ_SECTION = "read_section";

/**
 * Progressive disclosure for one run: renders the template at the run's visibility, provides the
 * `read_section` tool, and, as a strategy, expands what the model reads: injecting the tools it unlocks
 * (dynamic backends) or asking the runner to restart (a `VisibilityExpansionRequired` restart request).
 *
 * Tools follow content: a section's tools are offered only while it and its ancestors are shown in full.
 * Reading a section expands it and any summarized ancestors, and unlocks the tools of every section that
 * this makes fully visible (its descendants that are FULL themselves included).
 */
export class DisclosureSession implements ToolInjectionStrategy {
  readonly readSectionTool: AnyTool;
  // Whether the prompt the model reads (rendered once per attempt) shows a summarized section: it names
  // `read_section`, so the tool stays offered in this attempt even once every section is read.
  private promptSummarizes = false;

  constructor(
    /** The template this run renders. */
    readonly template: PromptTemplate,
    private readonly params: PromptParams,
    private readonly callerOverrides: VisibilityOverrides,
    private readonly store: VisibilityStore,
    private readonly dynamic: boolean,
    private readonly events: RunEvents,
  ) {
    // A section is the developer's own text, at the size they chose: it is read whole (see `wholeResult`).
    const read = defineTool<{ section_key: string }, string>({
      name: READ_SECTION,
      description:
        "Read the full content of a summarized section of your instructions. Reading a section may unlock tools that belong to it.",
      inputSchema: {
        type: "object",
        properties: {
          section_key: {
            type: "string",
            description: 'The section key shown in the summary, e.g. "policies.refunds"',
          },
        },
        required: ["section_key"],
        additionalProperties: false,
      },
      execute: ({ section_key }) => this.read(section_key),
    });
    this.readSectionTool = { ...read, wholeResult: true };
  }

  /** The system prompt at the current visibility. */
  render(): string {
    const visibility = this.visibility();
    this.promptSummarizes = this.template.hasSummarized(visibility);
    return this.template.render(this.params, visibility);
  }

  /**
   * The section tools offered at the start, plus `read_section` while anything is summarized, or while one
   * of the `waiting` calls (a resumed run's, a person approved) reads a section: it gets the section's text,
   * as any read of a section shown in full does, not an unknown tool's error.
   */
  initialTools(waiting: readonly { readonly toolName: string }[] = []): AnyTool[] {
    const visibility = this.visibility();
    const tools = this.template.openTools(visibility);
    const reading = waiting.some((c) => c.toolName === READ_SECTION);
    return this.template.hasSummarized(visibility) || reading ? [...tools, this.readSectionTool] : tools;
  }

  /**
   * `read_section` and the tools of every section, as if all were shown in full: the names a run keeps apart
   * from its own tools and from each other's before its first model call (a clash found when a read unlocked
   * the tool replaced a tool of the run unseen, or, on a restart, ended the run midway).
   */
  everyTool(): AnyTool[] {
    return [this.readSectionTool, ...this.template.openTools(() => SectionVisibility.FULL)];
  }

  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult {
    // A failed `read_section` (its input refused: no `section_key`, or not an object) expands nothing.
    if (context.lastToolCall.toolName !== READ_SECTION || context.lastToolCall.isError) return {};
    const sectionKey = (context.lastToolCall.toolInput as { section_key: string }).section_key;
    const node = this.template.find(sectionKey);
    if (!node) return {};
    const before = this.visibility();
    const expand = selfAndAncestors(node)
      .filter((n) => before(n) === SectionVisibility.SUMMARY)
      .map((n) => n.key);
    // Read again, or answered after a pause when nothing is summarized any more: withdrawn once unneeded
    // (see `keepsReadSection`).
    if (expand.length === 0) return this.keepsReadSection(before) ? {} : { remove: [READ_SECTION] };
    const overrides = Object.fromEntries(expand.map((key) => [key, SectionVisibility.FULL]));
    const after = this.visibility(overrides);
    const offered = new Set(this.template.openTools(before).map((t) => t.name));
    const unlocked = this.template.openTools(after).filter((t) => !offered.has(t.name));
    const unlockedNames = unlocked.map((t) => t.name);
    if (!this.dynamic && unlocked.length > 0) {
      const reason = `section "${sectionKey}" unlocks ${unlockedNames.join(", ")}, and this backend cannot add tools to a running conversation`;
      return { restart: new VisibilityExpansionRequired(overrides, reason, expand, unlockedNames) };
    }
    for (const key of expand)
      this.store.dispatch({
        type: "SetVisibilityOverride",
        sectionKey: key,
        visibility: SectionVisibility.FULL,
      });
    // One event per section shown in full, the summarized ancestors too, as a restart reports them.
    reportExpanded(
      this.events,
      this.template,
      { sectionKeys: expand, unlockedTools: unlockedNames },
      // A read that unlocks no tools changes nothing but the text the model reads, on any backend.
      unlocked.length > 0 ? "dynamic" : "content",
    );
    // Nothing to withdraw: a section expanded now was summarized in the prompt this attempt rendered
    // (visibility only moves to FULL within an attempt), and that prompt names `read_section`.
    return {
      add: unlocked,
      notices: unlocked.length > 0 ? [`Tools now available: ${unlockedNames.join(", ")}`] : [],
    };
  }

  /** `read_section` is withdrawn only when neither the prompt the model reads nor the run has a summary left. */
  private keepsReadSection(visibility: VisibilityOf): boolean {
    return this.promptSummarizes || this.template.hasSummarized(visibility);
  }

  private read(sectionKey: string): string {
    const node = this.template.find(sectionKey);
    if (!node)
      throw new Error(`Unknown section key "${sectionKey}". Valid keys: ${this.template.keys().join(", ")}`);
    const visibility = this.visibility();
    return renderSection(
      node,
      this.params,
      (n) => (n === node ? SectionVisibility.FULL : visibility(n)),
      this.template.name,
    );
  }

  private visibility(extra?: VisibilityOverrides): VisibilityOf {
    return this.template.visibilityOf(this.params, extra, this.store.snapshot(), this.callerOverrides);
  }
}
