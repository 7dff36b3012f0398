import { EntityToolsError } from "../errors/entity-tools-error.js";

/** `FakePromptRunner.verifyExpectations()` found scripted turns not played or stubs never used. */
export class UnmetExpectationsError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "UnmetExpectationsError";

  constructor(
    /** What was not met, one line each (a turn not played, a stub never used). */
    readonly problems: readonly string[],
  ) {
    super(`FakePromptRunner expectations not met: ${problems.join("; ")}`);
  }
}
