import type { RestartRequest } from "../strategies/tool-injection-strategy.js";
import type { VisibilityOverrides } from "./section-visibility.js";

/**
 * Reading a section unlocked tools on a backend that cannot add tools to a running conversation. It is a
 * value, not an exception: the disclosure strategy returns it as its restart request, the run ends its
 * attempt with it, and the runner stores `requestedOverrides`, re-renders the prompt and starts again.
 */
export class VisibilityExpansionRequired implements RestartRequest {
  constructor(
    readonly requestedOverrides: VisibilityOverrides,
    readonly reason: string,
    readonly sectionKeys: readonly string[],
    readonly unlockedTools: readonly string[] = [],
  ) {}
}
