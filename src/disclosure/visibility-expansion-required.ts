import type { RestartRequest } from "../strategies/tool-injection-strategy.js";
import type { VisibilityOverrides } from "./section-visibility.js";

/**
 * Reading a section unlocked tools on a backend that cannot add tools to a running conversation. It is a
 * value, not an exception: the disclosure strategy returns it as its restart request, the run ends its
 * attempt with it, and the runner stores `requestedOverrides`, re-renders the prompt and starts again.
 */
export class VisibilityExpansionRequired implements RestartRequest {
  constructor(
    /** `FULL` for the section read and every summarized section above it, by dotted key. */
    readonly requestedOverrides: VisibilityOverrides,
    /** Why, in words: the section read, the tools it unlocks, and that the backend cannot add them. */
    readonly reason: string,
    /** The sections to expand, by dotted key: the one read and its summarized ancestors. */
    readonly sectionKeys: readonly string[],
    /** The tools the expansion unlocks, by name. */
    readonly unlockedTools: readonly string[] = [],
  ) {}
}
