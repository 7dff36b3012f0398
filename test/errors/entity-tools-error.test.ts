import { describe, expect, it } from "vitest";
import { EntityToolsError, MaxIterationsExceededError, ToolLoopError, ToolNotFoundError } from "entity-tools";
// A second copy of the package in the same process: the build, next to the sources the alias resolves to.
import * as built from "../../dist/src/index.js";

describe("EntityToolsError.isInstance", () => {
  it("recognises errors of another copy of the package, where instanceof cannot", () => {
    const foreign = new built.MaxIterationsExceededError(3);
    expect(foreign).not.toBeInstanceOf(ToolLoopError);
    expect(MaxIterationsExceededError.isInstance(foreign)).toBe(true);
    expect(ToolLoopError.isInstance(foreign)).toBe(true);
    expect(EntityToolsError.isInstance(foreign)).toBe(true);
  });

  it("tells classes apart and refuses what is not ours", () => {
    const error = new MaxIterationsExceededError(3);
    expect(ToolNotFoundError.isInstance(error)).toBe(false);
    expect(ToolLoopError.isInstance(new Error("plain"))).toBe(false);
    expect(ToolLoopError.isInstance({ name: "ToolLoopError" })).toBe(false);
    expect(ToolLoopError.isInstance(null)).toBe(false);
    expect(error.name).toBe("MaxIterationsExceededError");
  });
});
