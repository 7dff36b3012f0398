// Without @opentelemetry/api installed (simulated: importing it fails), entity-tools still loads and runs;
// only a run with withTelemetry fails, at its start, saying what to install.
import { describe, expect, it, vi } from "vitest";
import { PromptRunner, TelemetryUnavailableError } from "entity-tools";
import { mockModel, text } from "../support/mock-model.js";

vi.mock("@opentelemetry/api", () => {
  throw new Error("Cannot find package '@opentelemetry/api'");
});

describe("withTelemetry without @opentelemetry/api", () => {
  it("a run without telemetry works; one with it fails before any model call, naming the package", async () => {
    expect(await new PromptRunner({ model: mockModel(text("hi")) }).generateText("q")).toBe("hi");
    const model = mockModel(text("hi"));
    const error = await new PromptRunner({ model })
      .withTelemetry()
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelemetryUnavailableError);
    expect((error as Error).message).toMatch(/npm install @opentelemetry\/api/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});
