// Every relative link in README.md and docs/*.md reaches a file of the repository, and a `#fragment`
// reaches a heading of that file (GitHub's anchors), so the front door and the guides never point nowhere.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const pages = [
  "README.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchor(m[1]!)));
}

/** Links outside code: `[text](target)` whose target is not a URL. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("links in README.md and docs/", () => {
  it("start from a README short enough to read: at most 350 lines", () => {
    expect(readFileSync("README.md", "utf8").split("\n").length).toBeLessThanOrEqual(350);
  });

  it("are found (the check reads the pages it should)", () => {
    expect(pages).toContain("docs/glossary.md");
    expect(relativeLinks("README.md").length).toBeGreaterThan(10);
  });

  it.each(pages)("every relative link of %s resolves", (page) => {
    const broken = relativeLinks(page).filter((link) => {
      const [target, fragment] = link.split("#") as [string, string | undefined];
      const file = target === "" ? page : path.join(path.dirname(page), decodeURI(target));
      if (!existsSync(file)) return true;
      return fragment !== undefined && file.endsWith(".md") && !anchorsOf(file).has(fragment);
    });
    expect(broken).toEqual([]);
  });
});
