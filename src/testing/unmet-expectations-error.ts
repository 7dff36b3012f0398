import { EntityToolsError } from "../errors/entity-tools-error.js";

/** `FakePromptRunner.verifyExpectations()` found scripted turns not played or stubs never used. */
export class UnmetExpectationsError extends EntityToolsError {
  static override readonly errorName: string = "UnmetExpectationsError";

  constructor(readonly problems: readonly string[]) {
    super(`FakePromptRunner expectations not met: ${problems.join("; ")}`);
  }
}
