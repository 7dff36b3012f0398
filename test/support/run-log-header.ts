// The first line of a run log written by hand, for the tests that read damaged, growing or made-up files.

/** A run log header line of format version 1 (a plain run, content recorded). */
export function runHeaderLine(id = "r", startedAt = "2026-11-27T10:00:00.000Z"): string {
  return JSON.stringify({
    type: "run",
    format: "entity-tools/run-log",
    version: 1,
    id,
    kind: "run",
    startedAt,
    recordContent: true,
  });
}
