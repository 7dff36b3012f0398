import { ToolLoopError } from "../loop/errors.js";
import type { VisibilityOverrides } from "./section-visibility.js";

/**
 * Reading a section unlocked tools on a backend that cannot add tools to a running conversation. The
 * runner catches it, stores `requestedOverrides`, re-renders the prompt and starts the run again.
 */
export class VisibilityExpansionRequired extends ToolLoopError {
  constructor(
    readonly requestedOverrides: VisibilityOverrides,
    readonly reason: string,
    readonly sectionKeys: readonly string[],
  ) {
    super(`Visibility expansion required: ${reason}`);
  }
}

/** The run needed more restarts for section expansions than allowed. */
export class ExpansionLimitError extends ToolLoopError {
  constructor(
    readonly maxExpansions: number,
    readonly sectionKeys: readonly string[],
  ) {
    super(
      `The run restarted ${maxExpansions} times to expand sections and then asked for more (${sectionKeys.join(", ")}); ` +
        "raise withMaxExpansions() or mark those sections FULL",
    );
  }
}
