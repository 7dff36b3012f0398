// A result with a picture that also discovers providers, with deferred delivery: the picture reaches the
// model inside the tool result, and the discovered tools reach it after that result, in the provider's
// deferred form, on both providers that have one.
import "../../fixtures/register.js";
import { afterEach, describe, expect, it } from "vitest";
import { LlmTool, PromptRunner, toolContent, toolImage, type ToolLoopEvent } from "entity-tools";
import { Bank, ran } from "../../fixtures/bank.js";
import { TINY_PNG, TINY_PNG_BASE64 } from "../../support/tiny-png.js";
import { expectAppendOnly } from "./append-only.js";
import { wireProvider, type ProviderName, type WireProvider } from "./wire-providers.js";

let wire: WireProvider | undefined;
afterEach(async () => wire?.close());

class ScannedBank extends Bank {
  @LlmTool({
    description: "Find the accounts of an owner, with a scan of the owner's card",
    parameters: { type: "object", properties: { owner: { type: "string" } }, required: ["owner"] },
  })
  findWithCard(owner: string) {
    const accounts = this.accounts.filter((a) => a.owner === owner);
    return toolContent(
      `The accounts of ${owner}, and the card scan:`,
      accounts,
      toolImage(TINY_PNG, "image/png"),
    );
  }
}

/** The discovered accounts, as the model reads them beside the picture. */
const ACCOUNTS = '[{"id":2,"owner":"Bob","balance":50}]';

type Item = { type: string; role?: string; content?: unknown; output?: unknown };

describe.each<ProviderName>(["anthropic", "openai"])(
  "a picture beside discovered providers, deferred, on %s",
  (provider) => {
    it("the picture is in the tool result, the discovered tools arrive after it, and the tool list never changes", async () => {
      ran.length = 0;
      wire = await wireProvider(provider, [
        { calls: [["findWithCard", { owner: "Bob" }]] },
        { calls: [["account_2_getBalance", {}]] },
        { text: "Bob has 50." },
      ]);
      const events: ToolLoopEvent[] = [];
      const run = await new PromptRunner({ model: wire.model, modelSettings: { maxRetries: 0 } })
        .withTools(new ScannedBank())
        .withToolProviderDiscovery({ delivery: "deferred" })
        .withObserver((e) => events.push(e))
        .run("What does Bob have?");

      expect(run.result).toBe("Bob has 50.");
      expect(ran).toEqual(["getBalance 2"]);
      expect(new Set(wire.tools()).size).toBe(1);
      const conversations = wire.conversations();
      expectAppendOnly(conversations);
      const second = conversations[1] as Item[];
      if (provider === "anthropic") {
        const results = second.at(-2)!.content as { type: string; content?: unknown }[];
        expect(results.find((b) => b.type === "tool_result")?.content).toEqual([
          { type: "text", text: "The accounts of Bob, and the card scan:" },
          { type: "text", text: ACCOUNTS },
          { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG_BASE64 } },
        ]);
        // The delivery comes after the result that caused it: a mid-conversation system message.
        expect(second.at(-1)).toMatchObject({ role: "system" });
        expect(JSON.stringify(second.at(-1))).toContain("account_2_getBalance");
      } else {
        const output = second.find((item) => item.type === "function_call_output")?.output as Item[];
        expect(output).toEqual([
          { type: "input_text", text: "The accounts of Bob, and the card scan:" },
          { type: "input_text", text: ACCOUNTS },
          { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG_BASE64}` },
        ]);
        expect(second.slice(-2).map((item) => item.type)).toEqual(["tool_search_call", "tool_search_output"]);
        expect(JSON.stringify(second.at(-1))).toContain("account_2_getBalance");
      }
      const discovered = events.filter((e) => e.type === "ToolProviderDiscovered");
      expect(discovered.map((e) => e.delivery)).toEqual(["deferred"]);
      expect(events.filter((e) => e.type === "ModelWarning")).toEqual([]);
    });
  },
);
