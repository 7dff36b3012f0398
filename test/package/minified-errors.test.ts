// Errors in a minified bundle: the minifier renames every class, yet each error keeps its own name and
// `isInstance` still tells the classes apart. Uses the build (npm test builds first).
import { describe, expect, it } from "vitest";
import { runMinified } from "../support/minified-bundle.js";

type Described = { name: string; claimedBy: string[] };
type Report = {
  className: string;
  errorClasses: string[];
  ownNames: Record<string, string>;
  toolLoopError: Described;
  runError: Described;
  storeError: Described;
};

describe("library errors in a bundle made with esbuild --minify", () => {
  it("keep their names, and isInstance claims each for its own class and its ancestors only", async () => {
    const report = await runMinified<Report>("test/fixtures/bundle/minified-errors.ts");
    expect(report.className).not.toBe("ToolLoopError"); // the minifier did rename the class
    expect(report.errorClasses.length).toBeGreaterThan(20); // the root's and the testing kit's
    expect(report.errorClasses).toEqual(
      expect.arrayContaining([
        "ScriptError",
        "StoredConversationUnreadableError",
        "ConversationTooLargeError",
        "ConversationStoreUnavailableError",
        "PostgresStoreError",
      ]),
    );
    // Every class, the stores' included, answers to its exported name, not a mangled one.
    expect(Object.entries(report.ownNames).filter(([exported, own]) => own !== exported)).toEqual([]);

    expect(report.toolLoopError.name).toBe("ToolLoopError");
    expect(report.toolLoopError.claimedBy.sort()).toEqual(["EntityToolsError", "ToolLoopError"]);

    expect(report.runError.name).toBe("MaxIterationsExceededError");
    expect(report.runError.claimedBy.sort()).toEqual([
      "EntityToolsError",
      "MaxIterationsExceededError",
      "ToolLoopError",
    ]);
    expect(report.storeError.name).toBe("ConversationTooLargeError");
    expect(report.storeError.claimedBy.sort()).toEqual(["ConversationTooLargeError", "EntityToolsError"]);
  }, 60_000);
});
