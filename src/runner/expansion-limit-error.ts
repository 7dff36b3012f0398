import { ToolLoopError } from "../loop/errors/errors.js";

/** The run needed more restarts for section expansions than allowed. */
export class ExpansionLimitError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ExpansionLimitError";

  constructor(
    /** The limit reached (`withMaxExpansions`). */
    readonly maxExpansions: number,
    /** The sections the run asked to expand beyond it (or the restart's reason). */
    readonly sectionKeys: readonly string[],
  ) {
    super(
      `The run restarted ${maxExpansions} ${maxExpansions === 1 ? "time" : "times"} to expand sections and then asked for more (${sectionKeys.join(", ")}); ` +
        "raise withMaxExpansions() or mark those sections FULL",
    );
  }
}
