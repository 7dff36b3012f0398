// Progressive disclosure as a misbehaving model and a demanding user would meet it (docs/reliability.md,
// D rows, hardening rounds 9 and 10): what the model was offered and read back, what the caller got, and
// what the run log says.
import "../fixtures/store/register.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  defineTool,
  DuplicateToolNameError,
  ExpansionLimitError,
  MarkdownSection,
  PromptRunner,
  PromptTemplate,
  readRunLog,
  ToolSourceClashError,
  type AnyTool,
  type ModelAdapter,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
} from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

/** A backend that, like the Codex app-server, cannot change tools within a conversation. */
const staticToolsAdapter = (model: ReturnType<typeof mockModel>): ModelAdapter => {
  const inner = new AiSdkAdapter(model);
  return { supportsDynamicTools: false, step: (request) => inner.step(request) };
};
const params = { company: "Acme" };
/** Each kind of backend: one that adds tools to the running conversation, and one with fixed tools. */
const backends = [
  ["dynamic", (model: ReturnType<typeof mockModel>) => new PromptRunner({ model })],
  [
    "fixed",
    (model: ReturnType<typeof mockModel>) => new PromptRunner({ adapter: staticToolsAdapter(model) }),
  ],
] as const;
/** Runs `run` with a run-log folder of its own; gives what it returned and the records of the file it wrote. */
async function logged<T>(run: (dir: string) => Promise<T>) {
  const dir = mkdtempSync(join(tmpdir(), "disclosure-log-"));
  try {
    const value = await run(dir);
    const [file] = readdirSync(dir);
    return { value, records: readRunLog(readFileSync(join(dir, file!), "utf8")).records };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** A template of one section per key, each summarized and holding `tools`. */
const summarized = (
  keys: readonly string[],
  tools: (key: string) => AnyTool[],
  template: (key: string) => string = (key) => `${key} rules`,
) =>
  new PromptTemplate({
    ns: "t",
    key: "hardening",
    sections: keys.map(
      (key) =>
        new MarkdownSection({
          key,
          title: key,
          template: template(key),
          summary: `${key} in short`,
          visibility: "SUMMARY",
          tools: tools(key),
        }),
    ),
  });

describe("progressive disclosure, hardened", () => {
  it("a section read refused for its input (a property the tool does not take) unlocks nothing", async () => {
    const refund = defineTool({ name: "refund", description: "Refund", execute: () => "refunded" });
    const model = mockModel(call("read_section", { section_key: "refunds", also: "please" }), text("ok"));
    await new PromptRunner({ model })
      .withSystemPrompt(
        summarized(["refunds"], () => [refund]),
        params,
      )
      .run("q");
    expect(toolResultsSeenAt(model, 1)[0]).toMatch(/^Invalid arguments for "read_section"/);
    expect(offeredAt(model, 1)).toEqual(["read_section"]);
  });

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

  it.each(backends)(
    "a section tool named like one of the run's own is refused before the first model call (%s tools)",
    async (_mode, runnerOf) => {
      const shadow = defineTool({
        name: "searchCustomer",
        description: "Another search",
        execute: () => "?",
      });
      const template = summarized(["crm"], () => [shadow]);
      const model = mockModel(
        call("read_section", { section_key: "crm" }),
        call("searchCustomer", { name: "John Smith" }),
        text("ok"),
      );
      const error = await runnerOf(model)
        .withTools(new CustomerSearchTools())
        .withSystemPrompt(template)
        .run("q")
        .catch((e: unknown) => e);
      // Before: a dynamic backend replaced the run's search with the section's, telling the model nothing
      // but "Tools now available: searchCustomer"; one with fixed tools threw this after a model call.
      expect(error).toBeInstanceOf(DuplicateToolNameError);
      expect((error as Error).message).toBe(
        'Two tools are named "searchCustomer": give one of them another name with @LlmTool({ name })',
      );
      expect(model.doGenerateCalls).toHaveLength(0);
    },
  );

  it("two sections' tools of one name are refused before the first model call", async () => {
    const model = mockModel(text("never"));
    const error = await new PromptRunner({ adapter: staticToolsAdapter(model) })
      .withSystemPrompt(
        summarized(["a", "b"], (key) => [
          defineTool({ name: "lookup", description: key, execute: () => key }),
        ]),
      )
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateToolNameError);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("reading the last summarized section keeps read_section offered while the prompt still points at it", async () => {
    // The model reads the manual, then each subsection it lists (`[Subsections: "policies.refunds", …]`).
    const model = mockModel(
      call("read_section", { section_key: "policies" }),
      call("read_section", { section_key: "policies.warranty" }),
      call("read_section", { section_key: "policies.refunds" }),
      call("read_section", { section_key: "policies.shipping" }),
      call("read_section", { section_key: "policies" }),
      text("ok"),
    );
    const run = await new PromptRunner({ model })
      .withSystemPrompt(supportPrompt(), params)
      .run("q")
      .catch((e: unknown) => e);
    // Before: read_section was withdrawn with the warranty read, each later read got `Unknown tool
    // "read_section"`, and the third in a row ended the run with ToolNotFoundError.
    expect(run).toMatchObject({ status: "completed", result: "ok" });
    const [, warranty, refunds, shipping, manual] = toolResultsSeenAt(model, 5);
    expect(warranty).toContain("Electronics carry a 2-year warranty");
    expect(refunds).toContain("## 2.1 Refunds (policies.refunds)\n\n- Items arriving damaged");
    expect(shipping).toContain("Standard shipping takes 3-5 business days");
    expect(manual).toContain("## 2.3 Warranty (policies.warranty)\n\nElectronics carry");
    // The prompt is rendered once per run: it still shows the manual summarized and names read_section.
    expect(String(model.doGenerateCalls[5]!.prompt[0]!.content)).toContain(
      'call `read_section` with key "policies".]',
    );
    expect(offeredAt(model, 5)).toEqual(["read_section", "checkRefundEligibility", "issueRefund"]);
  });

  it.each(backends)(
    "a section tool named like an MCP server's tool is refused before the first model call (%s tools)",
    async (_mode, runnerOf) => {
      const lookup = (answer: string) =>
        defineTool({ name: "lookup", description: `Looks up (${answer})`, execute: () => answer });
      const server = createMcpServer({ name: "shop", version: "1.0.0", tools: [lookup("from the server")] });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: "runner", version: "1.0.0" });
      await client.connect(clientSide);
      const template = summarized(["local"], () => [lookup("from the section")]);
      const model = mockModel(call("read_section", { section_key: "local" }), call("lookup"), text("ok"));
      const error = await runnerOf(model)
        .withMcpClient(client)
        .withSystemPrompt(template)
        .run("q")
        .catch((e: unknown) => e);
      await client.close();
      // Before: a dynamic backend replaced the server's tool with the section's when the section was read;
      // one with fixed tools threw this at the restart, after a model call.
      expect(error).toBeInstanceOf(ToolSourceClashError);
      expect(model.doGenerateCalls).toHaveLength(0);
    },
  );

  it.each(backends)(
    "a nested read expands its summarized parent too, and the run log says so for each (%s tools)",
    async (_mode, runnerOf) => {
      const model = mockModel(call("read_section", { section_key: "policies.warranty" }), text("ok"));
      const { value: run, records } = await logged((dir) =>
        runnerOf(model).withSystemPrompt(supportPrompt(), params).withRunLog(dir).run("q"),
      );
      expect(run.visibility).toEqual({ "policies.warranty": "FULL", policies: "FULL" });
      // Before, on a dynamic backend: one record, for the warranty, beside the refund tools it did not hold.
      expect(records.flatMap((r) => (r.type === "expanded" ? [r.section] : []))).toEqual([
        "policies.warranty",
        "policies",
      ]);
    },
  );

  it("a section tool named like a discovered provider's tool is offered under another name, and the model is told which", async () => {
    const spend = defineTool({
      name: "customer_c123_getAverageSpend",
      description: "The spend as the finance team counts it",
      execute: () => "finance: 50",
    });
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "finance" }),
      text("ok"),
    );
    await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withSystemPrompt(summarized(["finance"], () => [spend]))
      .run("q");
    const renamed = offeredAt(model, 2).find((n) => n.startsWith("customer_c123_getAverageSpend_"));
    expect(renamed).toMatch(/^customer_c123_getAverageSpend_[0-9a-z]+$/);
    // Before: only "[Tools now available: customer_c123_getAverageSpend]", the discovered provider's tool.
    expect(toolResultsSeenAt(model, 2)[1]).toBe(
      "# 1 finance (finance)\n\nfinance rules\n\n[Tools now available: customer_c123_getAverageSpend]\n" +
        `[Offered under another name, as its own is another tool's: customer_c123_getAverageSpend as ${renamed}.]`,
    );
  });

  it.each(backends)(
    "a section longer than withMaxResultChars is read whole (%s tools)",
    async (_mode, runnerOf) => {
      // The author's own text, 20 000 characters: numbered lines, so a cut anywhere shows.
      const lines = Array.from({ length: 400 }, (_, i) => `Rule ${String(i + 1).padStart(4, "0")}: `);
      const body = lines.map((l) => l.padEnd(50, ".")).join("\n");
      expect(body.length).toBeGreaterThanOrEqual(20_000);
      const model = mockModel(call("read_section", { section_key: "manual" }), text("ok"));
      const run = await runnerOf(model)
        .withSystemPrompt(
          summarized(
            ["manual"],
            () => [],
            () => body,
          ),
        )
        .run("q");
      // Before: the first 16 000 characters, then `[truncated: the result was 20420 characters; …]`.
      expect(toolResultsSeenAt(model, 1)).toEqual([`# 1 manual (manual)\n\n${body}`]);
      expect(run.result).toBe("ok");
    },
  );

  it.each(backends)(
    "each expanded section names the tools its own expansion unlocked (%s tools)",
    async (mode, runnerOf) => {
      const events: ToolLoopEvent[] = [];
      const model = mockModel(call("read_section", { section_key: "policies.warranty" }), text("ok"));
      const { records } = await logged((dir) =>
        runnerOf(model)
          .withSystemPrompt(supportPrompt(), params)
          .withObserver((e) => events.push(e))
          .withRunLog(dir)
          .run("q"),
      );
      // The warranty holds no tools; the manual's refunds subsection, shown in full with it, holds two.
      const expected = [
        { section: "policies.warranty", tools: [] },
        { section: "policies", tools: ["checkRefundEligibility", "issueRefund"] },
      ];
      // Before: the warranty's record listed the refund tools too.
      expect(records.flatMap((r) => (r.type === "expanded" ? [r] : []))).toEqual(
        expected.map((e) => ({
          type: "expanded",
          step: 1,
          ...e,
          mode: mode === "dynamic" ? "dynamic" : "restart",
        })),
      );
      expect(events.flatMap((e) => (e.type === "VisibilityExpanded" ? [e.unlockedTools] : []))).toEqual(
        expected.map((e) => e.tools),
      );
      expect(offeredAt(model, 1)).toEqual(expect.arrayContaining(["checkRefundEligibility", "issueRefund"]));
    },
  );

  it.each(backends)(
    "reading a section that unlocks no tools is reported as content only, neither dynamic nor a restart (%s tools)",
    async (_mode, runnerOf) => {
      const model = mockModel(call("read_section", { section_key: "faq" }), text("ok"));
      const { value: run, records } = await logged((dir) =>
        runnerOf(model)
          .withSystemPrompt(summarized(["faq"], () => []))
          .withRunLog(dir)
          .run("q"),
      );
      // Before: mode `dynamic`, counted in `dynamicExpansions`, on a backend with fixed tools too.
      expect(records.filter((r) => r.type === "expanded" || r.type === "restart")).toEqual([
        { type: "expanded", step: 1, section: "faq", mode: "content", tools: [] },
      ]);
      expect(run.counters).toMatchObject({ dynamicExpansions: 0, restarts: 0 });
      expect(toolResultsSeenAt(model, 1)).toEqual(["# 1 faq (faq)\n\nfaq rules"]);
    },
  );

  it.each(backends)(
    "a strategy's restart past withMaxExpansions says a strategy asked for it (%s tools)",
    async (_mode, runnerOf) => {
      const restartAfterSearch: ToolInjectionStrategy = {
        evaluateToolResult: ({ lastToolCall }) =>
          lastToolCall.toolName === "searchCustomer" ? { restart: { reason: "searched" } } : {},
      };
      const search = call("searchCustomer", { name: "John Smith" });
      const model = mockModel(search, search, text("never"));
      const error = await runnerOf(model)
        .withTools(new CustomerSearchTools())
        .withInjectionStrategy(restartAfterSearch)
        .withMaxExpansions(1)
        .run("q")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExpansionLimitError);
      // Before: `The run restarted 1 time to expand sections and then asked for more (searched); … mark
      // those sections FULL`, of a run without sections, with the reason as its `sectionKeys`.
      expect((error as Error).message).toBe(
        "The run restarted 1 time, as many as withMaxExpansions() allows, and then a strategy asked to restart again (searched); raise withMaxExpansions() or have the strategy ask for fewer restarts",
      );
      expect(error).toMatchObject({ sectionKeys: [], reason: "searched", totalIterations: 2 });
    },
  );
});
