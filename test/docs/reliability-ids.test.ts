// Each case of docs/reliability.md has an id of its own: tests, the CHANGELOG and other pages cite a case
// by its id alone ("as P11"), so an id used by two tables would point a reader at the wrong case.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

it("no id names two cases of docs/reliability.md", () => {
  const ids = [...readFileSync("docs/reliability.md", "utf8").matchAll(/^\| ([A-Z]+\d+) /gm)].map(
    (m) => m[1]!,
  );
  expect(ids.length).toBeGreaterThan(200);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
});
