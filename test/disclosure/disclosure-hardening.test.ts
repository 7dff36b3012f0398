// Progressive disclosure as a misbehaving model and a demanding user would meet it (docs/reliability.md,
// hardening round 9): what the model was offered and read back, and what the caller got.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { AiSdkAdapter, defineTool, PromptRunner, type ModelAdapter } from "entity-tools";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

/** A backend that, like the Codex app-server, cannot change tools within a conversation. */
const staticToolsAdapter = (model: ReturnType<typeof mockModel>): ModelAdapter => {
  const inner = new AiSdkAdapter(model);
  return { supportsDynamicTools: false, step: (request) => inner.step(request) };
};
const params = { company: "Acme" };

describe("progressive disclosure, hardened", () => {
  it("a section read left unrun by its message's restart tells the model, after a resume, to call it again", async () => {
    const wipe = defineTool({
      name: "wipeCache",
      description: "Wipe the cache",
      needsApproval: true,
      execute: () => "wiped",
    });
    const runner = (model: ReturnType<typeof mockModel>) =>
      new PromptRunner({ adapter: staticToolsAdapter(model) })
        .withTools(wipe)
        .withSystemPrompt(supportPrompt(), params);
    const paused = await runner(
      mockModel({
        toolCalls: [
          { toolName: "wipeCache" },
          { toolName: "read_section", input: { section_key: "policies" } },
          { toolName: "read_section", input: { section_key: "policies.warranty" } },
        ],
      }),
    ).run("q");
    expect(paused.status).toBe("awaiting-approval");

    const model = mockModel(call("read_section", { section_key: "policies.warranty" }), text("done"));
    const run = await runner(model).resume(paused.snapshot, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    // The resume goes on in the same conversation: the model reads each call's result of that message.
    const [wiped, policies, warranty] = toolResultsSeenAt(model, 0);
    expect(wiped).toBe("wiped");
    expect(policies).toContain("## 2.1 Refunds (policies.refunds)");
    expect(warranty).toBe(
      "Not run: the run restarts with an updated prompt (an earlier call in this message changed it); call it again if you still need it.",
    );
    expect(offeredAt(model, 0)).toEqual([
      "wipeCache",
      "checkRefundEligibility",
      "issueRefund",
      "read_section",
    ]);
    expect(toolResultsSeenAt(model, 1)[3]).toContain("Electronics carry a 2-year warranty");
    expect(run.result).toBe("done");
  });
});
