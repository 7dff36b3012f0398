import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A second reader of a streamed run's parts: `parts` (or a UI message stream, which reads them) has one
 * reader, and a second would wait for parts the first already took.
 */
export class StreamAlreadyReadError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "StreamAlreadyReadError";

  constructor() {
    super(
      "This run's parts already have a reader (parts, toUIMessageStream, toUIMessageStreamResponse or pipeUIMessageStreamToResponse): a RunStream has one. Read parts once and fan them out, or await result for the outcome",
    );
  }
}

/**
 * A reader of a streamed run's parts that started after the run made more parts than are kept for a
 * reader that has not started: they were dropped, so that a run nobody reads (a caller that only awaits
 * `result`) does not hold them all.
 */
export class StreamPartsDroppedError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "StreamPartsDroppedError";

  constructor(limit: number) {
    super(
      `This run's parts were dropped: nobody read them while it made more than ${limit.toLocaleString("en-US")} (a RunStream keeps that many for a reader that has not started). Start reading parts (or a UI stream) before awaiting anything else, or await result for the outcome`,
    );
  }
}
