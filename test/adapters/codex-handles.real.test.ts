// Handles mode on the real `codex app-server` (as in codex-app-server.real.test.ts): the class tools go in
// at thread start, so a discovery needs neither a restart nor the dispatcher.
import "../fixtures/store/register.js";
import { afterEach, describe, expect, it } from "vitest";
import { PromptRunner, type NewToolsMode } from "entity-tools";
import { CodexAppServerAdapter } from "entity-tools/codex";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { startOpenAiResponsesMock, type OpenAiResponsesMock } from "entity-tools/testing";
import { codexHomeFor } from "../support/codex-home.js";

let mock: OpenAiResponsesMock | undefined;
afterEach(async () => mock?.close());

describe("handles mode on the real codex app-server", () => {
  it.each<NewToolsMode>(["restart", "dispatch"])(
    "newTools %s: one thread, the same tools in every request, the discovered customer reached by its handle",
    async (newTools) => {
      mock = await startOpenAiResponsesMock(({ calledTools, text }) => {
        if (!calledTools.includes("searchCustomer"))
          return { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
        if (!calledTools.includes("customer_getAverageSpend")) {
          const handle = /Customer:c123~[\w-]{22}/.exec(text)![0];
          return { toolCalls: [{ name: "customer_getAverageSpend", input: { handle } }] };
        }
        return { text: "John spends 46.83 USD a month." };
      });
      const adapter = new CodexAppServerAdapter({
        codexHome: codexHomeFor(mock.baseURL),
        newTools,
        requestTimeoutMs: 20_000,
        turnTimeoutMs: 60_000,
      });
      const run = await new PromptRunner({ adapter })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery({ binding: "handles" })
        .run("What is John Smith's average monthly spend?");

      expect(run.result).toBe("John spends 46.83 USD a month.");
      expect(mock.requests).toHaveLength(3); // one thread: search, spend, answer
      const offered = mock.requests.map((r) => JSON.stringify([...r.offeredTools].sort()));
      expect(new Set(offered).size).toBe(1);
      expect(mock.requests[0]!.offeredTools).toEqual(
        expect.arrayContaining(["searchCustomer", "customer_getAverageSpend", "customer_recentOrders"]),
      );
      // Offered in dispatch mode (for tools that do join later), but discovery never needs it here.
      expect(mock.requests.flatMap((r) => r.calledTools)).not.toContain("call_discovered_tool");
      expect(JSON.stringify(mock.requests)).not.toContain("You already made these tool calls");
      expect(mock.requests[2]!.toolResults.at(-1)?.text).toBe('{"amount":46.83,"currency":"USD"}');
      expect(run.injectedTools).toEqual([]);
      expect(run.counters.restarts).toBe(0);
    },
  );
});
