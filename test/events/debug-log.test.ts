// The debug switch: withLogger (or ENTITY_TOOLS_DEBUG=1, to standard error) logs steps, tool-set changes
// and errors in one line each; nothing is logged by default.
import "../fixtures/store/register.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PromptRunner, type ConversationAdapter } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, text } from "../support/mock-model.js";

const discoveryRun = () =>
  new PromptRunner({ model: mockModel(call("searchCustomer", { name: "John Smith" }), text("found")) })
    .withTools(new CustomerSearchTools())
    .withToolProviderDiscovery();

/**
 * A conversation backend whose turn calls searchCustomer, and stops when told to: 1 000 tokens a turn, and
 * 50 of another model (a subagent's).
 */
const oneCallBackend: ConversationAdapter = {
  supportsDynamicTools: false,
  newTools: "restart",
  openConversation: async (setup) => ({
    send: async () => {
      const found = await setup.callTool({
        toolCallId: "t1",
        toolName: "searchCustomer",
        input: { name: "John" },
      });
      return {
        text: "",
        stopped: found.stopTurn,
        usage: { inputTokens: 1000, outputTokens: 10 },
        modelId: "m",
        otherModels: [{ modelId: "small", usage: { inputTokens: 50, outputTokens: 5 } }],
      };
    },
    close: async () => {},
  }),
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("the debug log", () => {
  it("withLogger: one line per step, tool-set change and the run's end", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    await discoveryRun().withLogger({ info: log, warn: log, error: log }).run("q");
    const text = lines.map((l) =>
      l.replace(/^\[entity-tools [\dTZ-]+-[0-9a-f]{6}\] /, "").replace(/\d+ ms/g, "N ms"),
    );
    expect(text).toEqual([
      "run started",
      "step 1 (mock-model-id): N ms, tokens in 0 (cached 0) out 0 (reasoning 0), tool calls: searchCustomer",
      "discovered Customer c123: customer_c123_getAverageSpend, customer_c123_recentOrders",
      "tools injected by searchCustomer: customer_c123_getAverageSpend, customer_c123_recentOrders",
      "step 2 (mock-model-id): N ms, tokens in 0 (cached 0) out 0 (reasoning 0), tool calls: none",
      "run completed after 2 steps, N ms",
    ]);
  });

  it("a call that waits for approval, and its decision, are one line each (never the reason's words)", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const runner = new PromptRunner({
      model: mockModel(call("searchCustomer", { name: "John" }), text("no")),
    })
      .withTools(new CustomerSearchTools())
      .withApproval(() => true)
      .withLogger({ info: log, warn: log, error: log });
    const paused = await runner.run("q");
    const id = paused.pendingApprovals[0]!.approvalId;
    await runner.resume(paused.snapshot, {
      approvals: { [id]: { approved: false, reason: "secret words" } },
    });
    const logged = lines.map((l) => l.replace(/^\[entity-tools [\dTZ-]+-[0-9a-f]{6}\] /, ""));
    expect(logged).toContain(`searchCustomer (${id}) waits for approval`);
    expect(logged).toContain(`searchCustomer (${id}) denied`);
    expect(lines.join("\n")).not.toContain("secret words");
  });

  it("a conversation turn a stop ended: its tokens are one more line on its last step, not a second response", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const paused = await new PromptRunner({ adapter: oneCallBackend })
      .withTools(new CustomerSearchTools())
      .withApproval(() => true)
      .withLogger({ info: log, warn: log, error: log })
      .run("q");
    const id = paused.pendingApprovals[0]!.approvalId;
    const text = lines.map((l) =>
      l.replace(/^\[entity-tools [\dTZ-]+-[0-9a-f]{6}\] /, "").replace(/\d+ ms/g, "N ms"),
    );
    expect(text).toEqual([
      "run started",
      "step 1: N ms, tokens in 0 (cached 0) out 0 (reasoning 0), tool calls: searchCustomer",
      "step 1 (m): the turn's tokens in 1000 (cached 0) out 10 (reasoning 0)",
      "step 1 (small): another model in the turn (a subagent, a helper call), tokens in 50 (cached 0) out 5 (reasoning 0)",
      `searchCustomer (${id}) waits for approval`,
      "run awaiting-approval after 1 steps, N ms",
    ]);
  });

  it("another model in a turn (a subagent's, a helper call's) is a line of its own naming it and its tokens", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const subagents: ConversationAdapter = {
      supportsDynamicTools: false,
      newTools: "restart",
      openConversation: async () => ({
        send: async () => ({
          text: "done",
          stopped: false,
          usage: { inputTokens: 300, outputTokens: 21 },
          modelId: "claude-sonnet-4-5",
          otherModels: [
            {
              modelId: "claude-haiku-4-5",
              usage: { inputTokens: 100, outputTokens: 7, cachedInputTokens: 40 },
            },
          ],
        }),
        close: async () => {},
      }),
    };
    await new PromptRunner({ adapter: subagents }).withLogger({ info: log, warn: log, error: log }).run("q");
    const text = lines.map((l) =>
      l.replace(/^\[entity-tools [\dTZ-]+-[0-9a-f]{6}\] /, "").replace(/\d+ ms/g, "N ms"),
    );
    expect(text).toEqual([
      "run started",
      "step 1 (claude-sonnet-4-5): N ms, tokens in 300 (cached 0) out 21 (reasoning 0), tool calls: none",
      "step 1 (claude-haiku-4-5): another model in the turn (a subagent, a helper call), " +
        "tokens in 100 (cached 40) out 7 (reasoning 0)",
      "run completed after 1 steps, N ms",
    ]);
  });

  it("errors are logged at error level with our error class", async () => {
    const errors: string[] = [];
    const model = mockModel(() => {
      throw new Error("provider down");
    });
    const runner = new PromptRunner({ model, modelSettings: { maxRetries: 0 } }).withLogger({
      info: () => {},
      warn: () => {},
      error: (line) => errors.push(line),
    });
    await expect(runner.run("q")).rejects.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/run failed after 1 steps: ModelCallError: .*provider down/);
  });

  it("ENTITY_TOOLS_DEBUG=1 logs to standard error; without it nothing is logged", async () => {
    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    const stdout = vi.spyOn(console, "log").mockImplementation(() => {});
    await discoveryRun().run("q");
    expect(stderr).not.toHaveBeenCalled();
    vi.stubEnv("ENTITY_TOOLS_DEBUG", "1");
    await discoveryRun().run("q");
    expect(stderr.mock.calls.map((c) => String(c[0]))).toContainEqual(
      expect.stringMatching(/run completed after 2 steps/),
    );
    expect(stdout).not.toHaveBeenCalled();
  });
});
