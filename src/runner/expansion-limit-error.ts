import { ToolLoopError } from "../loop/errors/errors.js";

/** The run needed more restarts for section expansions than allowed. */
export class ExpansionLimitError extends ToolLoopError {
  static override readonly errorName: string = "ExpansionLimitError";

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
