import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  defineTool,
  ExpansionLimitError,
  MarkdownSection,
  PromptRunner,
  PromptTemplate,
  SectionVisibility,
  type ModelAdapter,
  type ToolLoopEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

/** A backend that, like the Codex app-server, cannot change tools within a conversation. */
const staticToolsAdapter = (model: ReturnType<typeof mockModel>): ModelAdapter => {
  const inner = new AiSdkAdapter(model);
  return { supportsDynamicTools: false, step: (request) => inner.step(request) };
};

const systemAt = (model: ReturnType<typeof mockModel>, index: number) =>
  String(model.doGenerateCalls[index]?.prompt[0]?.content);
const params = { company: "Acme" };

describe("progressive disclosure through the real loop", () => {
  it("dynamic backend: reading the policy manual injects the refund tools with no extra model call", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "policies" }),
      call("checkRefundEligibility", { orderId: "o-1002" }),
      text("eligible"),
    );
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withSystemPrompt(supportPrompt(), params)
      .withObserver((e) => events.push(e))
      .run("Refund o-1002?");

    expect(model.doGenerateCalls).toHaveLength(4);
    expect(offeredAt(model, 0)).toEqual(["searchCustomer", "findCustomers", "read_section"]);
    expect(systemAt(model, 0)).toContain('call `read_section` with key "policies".]');
    expect(systemAt(model, 0)).not.toContain("Items arriving damaged");
    expect(offeredAt(model, 2)).toEqual([
      "searchCustomer",
      "findCustomers",
      "read_section",
      "checkRefundEligibility",
      "issueRefund",
    ]);
    const readResult = toolResultsSeenAt(model, 2)[1]!;
    expect(readResult).toContain(
      "## 2.1 Refunds (policies.refunds)\n\n- Items arriving damaged are refunded in full",
    );
    expect(readResult).toContain(
      '[This section is summarized. To view full content, call `read_section` with key "policies.warranty".]',
    );
    expect(readResult).toContain("[Tools now available: checkRefundEligibility, issueRefund]");
    expect(events.filter((e) => e.type === "VisibilityExpanded")).toMatchObject([
      { sectionKey: "policies", mode: "dynamic", unlockedTools: ["checkRefundEligibility", "issueRefund"] },
    ]);
    expect(events.find((e) => e.type === "ToolsInjected")).toMatchObject({
      toolNames: ["checkRefundEligibility", "issueRefund"],
      triggeredBy: "read_section",
    });
    expect(run.counters).toMatchObject({ dynamicExpansions: 1, restarts: 0, toolsInjected: 2 });
    expect(run.visibility).toEqual({ policies: "FULL" });
  });

  it("static backend: the same read restarts once with the section expanded and its tools offered from the start", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "policies" }),
      call("searchCustomer", { name: "John Smith" }),
      call("checkRefundEligibility", { orderId: "o-1002" }),
      text("eligible"),
    );
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ adapter: staticToolsAdapter(model) })
      .withTools(new CustomerSearchTools())
      .withSystemPrompt(supportPrompt(), params)
      .withObserver((e) => events.push(e))
      .run("Refund o-1002?");

    expect(model.doGenerateCalls).toHaveLength(5); // one more than the dynamic path: the restart repeats the search
    expect(offeredAt(model, 2)).toEqual([
      "searchCustomer",
      "findCustomers",
      "checkRefundEligibility",
      "issueRefund",
      "read_section",
    ]);
    expect(systemAt(model, 2)).toContain("- Items arriving damaged are refunded in full");
    expect(model.doGenerateCalls[2]!.prompt.map((m) => m.role)).toEqual(["system", "user"]);
    expect(events.filter((e) => e.type === "VisibilityExpanded")).toMatchObject([
      { sectionKey: "policies", mode: "restart", unlockedTools: ["checkRefundEligibility", "issueRefund"] },
    ]);
    expect(run.totalIterations).toBe(5);
    expect(run.counters).toMatchObject({ restarts: 1, dynamicExpansions: 0 });
    expect(run.result).toBe("eligible");
  });

  it("a content-only section never restarts, even on a static backend", async () => {
    const template = new PromptTemplate({
      ns: "t",
      key: "faq",
      sections: [
        new MarkdownSection({
          key: "faq",
          title: "FAQ",
          template: "Opening hours: 9-17.",
          summary: "Common questions.",
          visibility: "SUMMARY",
        }),
      ],
    });
    const model = mockModel(call("read_section", { section_key: "faq" }), text("9-17"));
    const run = await new PromptRunner({ adapter: staticToolsAdapter(model) })
      .withSystemPrompt(template)
      .run("When are you open?");
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(run.counters.restarts).toBe(0);
    expect(toolResultsSeenAt(model, 1)).toEqual(["# 1 FAQ (faq)\n\nOpening hours: 9-17."]);
    // Nothing is summarized any more, but the prompt the model reads still points at read_section: kept.
    expect(offeredAt(model, 1)).toEqual(["read_section"]);
  });

  it("unknown keys list the valid keys; an expanded section returns its content and no tools", async () => {
    const model = mockModel(
      call("read_section", { section_key: "refunds" }),
      call("read_section", { section_key: "role" }),
      text("ok"),
    );
    await new PromptRunner({ model }).withSystemPrompt(supportPrompt(), params).run("q");
    const [unknown, role] = toolResultsSeenAt(model, 2);
    expect(unknown).toBe(
      'Tool "read_section" failed: Unknown section key "refunds". Valid keys: role, policies, policies.refunds, policies.shipping, policies.warranty, style',
    );
    expect(role).toBe(
      "# 1 Role (role)\n\nYou are the customer support agent of Acme. Be brief, friendly and exact.",
    );
    expect(offeredAt(model, 2)).toEqual(["read_section"]);
  });

  it("a resumed run starts from the snapshot: the section is expanded and its tools offered at step 1", async () => {
    const model = mockModel(text("ok"));
    await new PromptRunner({ model })
      .withSystemPrompt(supportPrompt(), params)
      .run("q", { visibility: { policies: "FULL" } });
    expect(offeredAt(model, 0)).toEqual(["checkRefundEligibility", "issueRefund", "read_section"]);
    expect(systemAt(model, 0)).toContain("## 2.1 Refunds");
  });

  it("caller overrides expand sections up front", async () => {
    const model = mockModel(text("ok"));
    await new PromptRunner({ model })
      .withSystemPrompt(supportPrompt(), params)
      .withVisibilityOverrides({
        policies: SectionVisibility.FULL,
        "policies.warranty": SectionVisibility.FULL,
      })
      .run("q");
    expect(offeredAt(model, 0)).toEqual(["checkRefundEligibility", "issueRefund"]);
  });

  it("the restart cap ends the run with a clear error", async () => {
    const section = (key: string) =>
      new MarkdownSection({
        key,
        title: key,
        template: `${key} details`,
        summary: `${key} in short`,
        visibility: "SUMMARY",
        tools: [defineTool({ name: `${key}_tool`, description: key, execute: () => key })],
      });
    const template = new PromptTemplate({
      ns: "t",
      key: "two",
      sections: [section("alpha"), section("beta")],
    });
    const model = mockModel(
      call("read_section", { section_key: "alpha" }),
      call("read_section", { section_key: "beta" }),
      text("never"),
    );
    const error = await new PromptRunner({ adapter: staticToolsAdapter(model) })
      .withSystemPrompt(template)
      .withMaxExpansions(1)
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExpansionLimitError);
    expect((error as Error).message).toBe(
      "The run restarted 1 time, as many as withMaxExpansions() allows, and then asked to again, to expand sections (beta); raise withMaxExpansions() or mark those sections FULL",
    );
    expect((error as ExpansionLimitError).totalIterations).toBe(2);
  });
});
