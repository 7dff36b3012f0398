// A run's id is unique across processes and sorts by when its run began: within a process strictly, so
// that runs begun in one millisecond (a scripted model's turns) list, and their run log files sort, in order.
import { describe, expect, it } from "vitest";
import { newRunId } from "../../src/events/run-id.js";

describe("newRunId", () => {
  it("gives ids that sort in the order they were made, in one millisecond too, each its own", () => {
    const ids = Array.from({ length: 2_000 }, () => newRunId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{6}$/);
  });
});
