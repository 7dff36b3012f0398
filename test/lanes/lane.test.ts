// Each test lane runs what it claims: Node 20 or newer with ai 6 (npm test's first lane), Node 22 with ai 7 and
// the LanguageModelV4 spec (the second, lanes/ai7). The lane's config names it in ENTITY_TOOLS_LANE.
import { describe, expect, it } from "vitest";
import { PromptRunner } from "entity-tools";
import { mockModel } from "../support/mock-model.js";

const lane = process.env.ENTITY_TOOLS_LANE ?? "ai6";

describe(`this test lane (${lane})`, () => {
  it("runs on the Node and the language-model spec it names", () => {
    const nodeMajor = Number(process.versions.node.split(".")[0]);
    const spec = mockModel().specificationVersion;
    if (lane === "ai7") expect({ nodeMajor, spec }).toEqual({ nodeMajor: 22, spec: "v4" });
    else expect({ atLeast20: nodeMajor >= 20, spec }).toEqual({ atLeast20: true, spec: "v3" });
  });

  // The built package is loaded by Node, not by vitest (vitest.shared.ts): its own `import "ai"` must find
  // the lane's ai too, which names itself in the model request's user-agent.
  it("runs the package on the lane's ai: the model request's user-agent names it", async () => {
    const model = mockModel({ text: "hi" });
    await new PromptRunner({ model }).run("Hello");
    const userAgent = model.doGenerateCalls[0]?.headers?.["user-agent"];
    expect(userAgent).toMatch(lane === "ai7" ? /^ai\/7\./ : /^ai\/6\./);
  });
});
