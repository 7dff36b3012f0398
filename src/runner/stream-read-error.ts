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
