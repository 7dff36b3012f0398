import { EntityToolsError } from "../errors/entity-tools-error.js";

/** `withRunLog` (or `createMcpServer`'s `runLog`) was given a folder it cannot write run logs into. */
export class RunLogError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "RunLogError";

  constructor(
    /** The folder, as resolved. */
    readonly dir: string,
    /** What went wrong, in words (the system's error code and message). */
    readonly problem: string,
    cause?: unknown,
  ) {
    super(
      `Cannot write run logs into ${dir === "" ? '""' : dir}: ${problem}. Give withRunLog (or createMcpServer's ` +
        "runLog) a folder this process can create and write (it is created, readable by its owner only, when missing).",
      { cause },
    );
  }
}
