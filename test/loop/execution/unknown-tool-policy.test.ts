import { describe, expect, it } from "vitest";
import { UnknownToolPolicy } from "../../../src/loop/execution/unknown-tool-policy.js";

describe("UnknownToolPolicy", () => {
  it("ends the run at the limit of unknown calls in a row, naming the last one", () => {
    const policy = new UnknownToolPolicy(2);
    policy.record("a", false);
    expect(policy.verdict(["echo"])).toBeUndefined();
    policy.record("b", false);
    expect(policy.verdict(["echo"])).toMatchObject({ requestedTool: "b", availableTools: ["echo"] });
  });

  it("never ends the run on one message's calls alone: the model has not read a result of the streak yet", () => {
    const policy = new UnknownToolPolicy(2);
    policy.record("a", false);
    policy.record("b", false);
    policy.record("c", false);
    expect(policy.verdict(["echo"])).toBeUndefined();
    policy.record("d", false);
    expect(policy.verdict(["echo"])).toMatchObject({
      requestedTool: "d",
      message: expect.stringMatching(/4 times/),
    });
  });

  it("a streak that a known call restarted in this message has not been read either", () => {
    const policy = new UnknownToolPolicy(2);
    policy.record("a", false);
    expect(policy.verdict(["echo"])).toBeUndefined();
    policy.record("echo", true);
    policy.record("b", false);
    policy.record("c", false);
    expect(policy.verdict(["echo"])).toBeUndefined();
  });

  it("a known call resets the streak", () => {
    const policy = new UnknownToolPolicy(2);
    policy.record("a", false);
    policy.record("echo", true);
    policy.record("b", false);
    expect(policy.verdict(["echo"])).toBeUndefined();
  });

  it("answers with the closest names, lists at most 30 tools, and cuts a long name", () => {
    const policy = new UnknownToolPolicy(3);
    expect(policy.message("ecko", ["echo", "other"])).toBe(
      'Unknown tool "ecko". Did you mean: echo? Available tools: echo, other.',
    );
    const many = Array.from({ length: 40 }, (_, i) => `tool${i}`);
    expect(policy.message("zzz", many)).toMatch(/tool29, …\.$/);
    expect(policy.message("x".repeat(5_000), [])).toBe(
      `Unknown tool "${"x".repeat(80)}… (5000 characters)". Available tools: (none).`,
    );
    expect(policy.message(" ", ["echo"])).toBe("The tool name is empty. Available tools: echo.");
  });
});
