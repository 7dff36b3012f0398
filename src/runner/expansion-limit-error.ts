import { ToolLoopError } from "../loop/errors/errors.js";

/** The run asked to start again from its prompt more times than `withMaxExpansions` allows. */
export class ExpansionLimitError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ExpansionLimitError";

  constructor(
    /** The limit reached (`withMaxExpansions`). */
    readonly maxExpansions: number,
    /** The sections the restart past it would have expanded; none when a strategy asked for it. */
    readonly sectionKeys: readonly string[],
    /** Why that restart was asked for (the restart request's reason; a strategy's is its author's words). */
    readonly reason?: string,
  ) {
    const times = `${maxExpansions} ${maxExpansions === 1 ? "time" : "times"}, as many as withMaxExpansions() allows`;
    super(
      sectionKeys.length > 0
        ? `The run restarted ${times}, and then asked to again, to expand sections (${sectionKeys.join(", ")}); ` +
            "raise withMaxExpansions() or mark those sections FULL"
        : `The run restarted ${times}, and then a strategy asked to restart again (${reason ?? "no reason given"}); ` +
            "raise withMaxExpansions() or have the strategy ask for fewer restarts",
    );
  }
}
