import { describe, expect, it } from "vitest";
import { VisibilityStore, visibilityReducer } from "../../../src/loop/run/visibility-store.js";

describe("visibility store", () => {
  it("is driven by events through a pure reducer", () => {
    const start = {};
    const next = visibilityReducer(start, {
      type: "SetVisibilityOverride",
      sectionKey: "a",
      visibility: "FULL",
    });
    expect(start).toEqual({});
    expect(next).toEqual({ a: "FULL" });
    expect(visibilityReducer(next, { type: "ClearVisibilityOverride", sectionKey: "a" })).toEqual({});
    expect(visibilityReducer({ a: "FULL", b: "SUMMARY" }, { type: "ClearAllVisibilityOverrides" })).toEqual(
      {},
    );
  });

  it("snapshots, and a new store starts from a snapshot", () => {
    const store = new VisibilityStore();
    store.dispatch({ type: "SetVisibilityOverride", sectionKey: "policies", visibility: "FULL" });
    const snapshot = store.snapshot();
    store.dispatch({ type: "ClearAllVisibilityOverrides" });
    expect(store.snapshot()).toEqual({});
    expect(snapshot).toEqual({ policies: "FULL" });
    expect(Object.isFrozen(store.snapshot())).toBe(true);
    expect(new VisibilityStore(snapshot).snapshot()).toEqual({ policies: "FULL" });
  });
});
