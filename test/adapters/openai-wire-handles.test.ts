import "../fixtures/register.js";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { EntityHandleCodec, PromptRunner } from "entity-tools";
import { Account, AccountNote, Bank, ran } from "../fixtures/bank.js";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";

let mock: OpenAiMock | undefined;
afterEach(async () => mock?.close());

const KEY = "wire-handles-key";

describe("handles mode through @ai-sdk/openai against a local wire mock", () => {
  for (const api of ["chat", "responses"] as const) {
    it(`over the ${api} API the tools array is byte-identical in every request of a discovering run`, async () => {
      ran.length = 0;
      const bank = new Bank();
      const handle = new EntityHandleCodec(KEY).handleOf(bank.accounts[1]!);
      mock = await startOpenAiMock(api, [
        { toolCalls: [{ name: "findAccounts", input: { owner: "Bob" } }] },
        { toolCalls: [{ name: "notes", input: {} }] },
        { toolCalls: [{ name: "account_getBalance", input: { handle } }] },
        { text: "Bob has 50." },
      ]);
      const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" });
      const model = api === "chat" ? openai.chat("gpt-test") : openai.responses("gpt-test");
      const run = await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
        .withTools(bank)
        .withToolProviderDiscovery({ binding: "handles", classes: [Account, AccountNote], handleKey: KEY })
        .run("What is Bob's balance?");

      expect(run.result).toBe("Bob has 50.");
      expect(ran).toEqual(["getBalance 2"]);
      expect(mock.requests).toHaveLength(4);
      const tools = mock.requests.map((r) => JSON.stringify(r.body.tools));
      expect(new Set(tools).size).toBe(1);
      expect(tools[0]).toContain('"account_getBalance"');
      expect(tools[0]).not.toContain("account_2_");
      // What the model read after the search: the handle verbatim, and the operations it has.
      const afterSearch = JSON.stringify(mock.requests[1]!.body);
      expect(afterSearch).toContain(handle);
      expect(afterSearch).toContain("operations: account_getBalance, account_withdraw");
    });
  }
});
