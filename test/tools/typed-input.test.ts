// Typed input through the real loop, under vitest (esbuild: no decorator metadata): the tool receives a
// Date, class instances (nested, in arrays, with @Type) whose methods work.
import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { PromptRunner } from "entity-tools";
import { Planner } from "../fixtures/planner.js";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";

const trip = {
  name: "Coast",
  startsOn: "2026-12-01T00:00:00.000Z",
  stops: [{ at: "2026-12-01T09:30:00.000Z", place: { street: "1 Pier Rd", city: "Brighton" } }],
};

describe("typed tool input", () => {
  it("a Date parameter gets a Date, class parameters get instances, nested and in arrays", async () => {
    const model = mockModel(
      call("visit", {
        when: "2026-11-22T10:00:00.000Z",
        where: { street: "5 Main St", city: "Leeds" },
        trips: [trip],
      }),
      text("planned"),
    );
    await new PromptRunner({ model }).withTools(new Planner()).run("Plan it");
    expect(toolResultsSeenAt(model, 1)).toEqual([
      "2026-11-22T10:00:00.000Z at 5 Main St, Leeds; Coast (2026-12-01T00:00:00.000Z): 2026-12-01T09:30:00.000Z 1 Pier Rd, Brighton",
    ]);
  });

  it.each(["2016-12-31T23:59:60Z", "2016-12-31t23:59:60.25z", "2017-01-01T00:59:60+01:00"])(
    "a leap second (%s, valid RFC 3339) reaches a Date parameter as the last millisecond of its second",
    async (when) => {
      const model = mockModel(
        call("visit", { when, where: { street: "s", city: "c" }, trips: [] }),
        text("planned"),
      );
      await new PromptRunner({ model }).withTools(new Planner()).run("Plan it");
      expect(toolResultsSeenAt(model, 1)[0]).toMatch(/^2016-12-31T23:59:59\.999Z at s, c/);
    },
  );

  it("a leap second in a nested @Type(() => Date) field is converted the same way", async () => {
    const stop = { at: "2016-12-31T23:59:60Z", place: { street: "1 Pier Rd", city: "Brighton" } };
    const model = mockModel(
      call("visit", {
        when: "2026-11-22T10:00:00Z",
        where: { street: "s", city: "c" },
        trips: [{ name: "Eve", stops: [stop] }],
      }),
      text("planned"),
    );
    await new PromptRunner({ model }).withTools(new Planner()).run("Plan it");
    expect(toolResultsSeenAt(model, 1)[0]).toContain("Eve (any day): 2016-12-31T23:59:59.999Z 1 Pier Rd");
  });

  it("text that is not a date-time is a validation error; the tool is not called", async () => {
    let called = false;
    const planner = new Planner();
    planner.visit = () => ((called = true), "ran");
    const model = mockModel(
      call("visit", { when: "next tuesday", where: { street: "s", city: "c" }, trips: [] }),
      text("done"),
    );
    await new PromptRunner({ model }).withTools(planner).run("Plan it");
    expect(called).toBe(false);
    expect(toolResultsSeenAt(model, 1)).toEqual([
      'Invalid arguments for "visit": field "when" must be a date-time (ISO 8601, e.g. 2026-11-22T10:00:00Z).',
    ]);
  });

  it("absent optional parameters and null stay as they are", async () => {
    const model = mockModel(
      call("visit", { when: "2026-11-22T10:00:00Z", where: { street: "s", city: "c" }, trips: [] }),
      text("done"),
    );
    await new PromptRunner({ model }).withTools(new Planner()).run("Plan it");
    expect(toolResultsSeenAt(model, 1)).toEqual(["2026-11-22T10:00:00.000Z at s, c; "]);
  });
});
