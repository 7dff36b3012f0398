// A fixed-tool conversation backend in dispatch mode (Codex's `newTools: "dispatch"`): in handles mode
// with the classes known up front, every operation is offered from the start, so no call_discovered_tool
// is offered; with per-instance binding it still is.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { PromptRunner, type ConversationAdapter, type ConversationSetup } from "entity-tools";
import { Customer } from "../../fixtures/store/customer.js";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";

/** A dispatch-mode backend whose model searches, calls one operation, and answers. */
function dispatchBackend(operation: (found: string) => { toolName: string; input: unknown }) {
  const opened: string[][] = [];
  const adapter: ConversationAdapter = {
    supportsDynamicTools: false,
    newTools: "dispatch",
    openConversation: async (setup: ConversationSetup) => {
      opened.push(setup.tools.map((t) => t.name));
      return {
        send: async () => {
          const found = await setup.callTool({
            toolCallId: "c1",
            toolName: "searchCustomer",
            input: { name: "John Smith" },
          });
          const result = await setup.callTool({ toolCallId: "c2", ...operation(found.text) });
          return { text: result.text, stopped: false };
        },
        close: async () => {},
      };
    },
  };
  return { adapter, opened };
}

describe("dispatch mode and handles", () => {
  it("handles mode with the classes known up front: no call_discovered_tool; the class tool is called directly", async () => {
    const { adapter, opened } = dispatchBackend((found) => ({
      toolName: "customer_getAverageSpend",
      input: { handle: /"(Customer:[^"]+)"/.exec(found)![1] },
    }));
    const run = await new PromptRunner({ adapter })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ binding: "handles", classes: [Customer] })
      .run("What does John spend?");
    expect(opened).toHaveLength(1);
    expect(opened[0]).toContain("customer_getAverageSpend");
    expect(opened[0]).not.toContain("call_discovered_tool");
    expect(run.result).toContain("46.83");
  });

  it("per-instance binding: call_discovered_tool is offered and reaches the discovered tool", async () => {
    const { adapter, opened } = dispatchBackend(() => ({
      toolName: "call_discovered_tool",
      input: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
    }));
    const run = await new PromptRunner({ adapter })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("What does John spend?");
    expect(opened[0]).toContain("call_discovered_tool");
    expect(run.result).toContain("46.83");
  });
});
