// Per-instance mode's rules hold with deferred delivery, on both providers that have a deferred form: the
// budget, approvals, resume and continueFrom, with the tool list unchanged from the first request to the last.
import "../../fixtures/register.js";
import { afterEach, describe, expect, it } from "vitest";
import { PromptRunner, type ToolLoopEvent } from "entity-tools";
import { Bank, ran } from "../../fixtures/bank.js";
import { expectAppendOnly } from "./append-only.js";
import { wireProvider, type ProviderName, type WireProvider } from "./wire-providers.js";

let wire: WireProvider | undefined;
afterEach(async () => wire?.close());

const runner = (w: WireProvider, options: { maxInjectedTools?: number } = {}, bank = new Bank()) =>
  new PromptRunner({ model: w.model, modelSettings: { maxRetries: 0 } })
    .withTools(bank)
    .withToolProviderDiscovery({ delivery: "deferred", ...options });

/** The tool names removed by Anthropic tool changes anywhere in a conversation. */
function removals(conversation: readonly unknown[]): string[] {
  return (
    JSON.stringify(conversation)
      .match(/"tool_removal","tool":\{"type":"tool_reference","name":"[^"]+"/g)
      ?.map((m) => m.split('"name":"')[1]!.slice(0, -1)) ?? []
  );
}

describe.each<ProviderName>(["anthropic", "openai"])("deferred delivery on %s", (provider) => {
  it("the budget evicts a delivered tool; a call to it then runs nothing", async () => {
    ran.length = 0;
    wire = await wireProvider(provider, [
      { calls: [["findAccounts", { owner: "Bob" }]] },
      { calls: [["notes", {}]] },
      { calls: [["account_2_getBalance", {}]] },
      { calls: [["account_1_read", {}]] },
      { text: "done" },
    ]);
    const events: ToolLoopEvent[] = [];
    const run = await runner(wire, { maxInjectedTools: 2 })
      .withObserver((e) => events.push(e))
      .run("?");

    expect(run.result).toBe("done");
    // The note's tool took the place of the least recently used one, Bob's getBalance: its call ran nothing.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "ToolsRemoved",
        toolNames: ["account_2_getBalance"],
        reason: "budget",
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: "ToolFailed", toolName: "account_2_getBalance" }),
    );
    expect(ran).toEqual(["read note 1"]);
    expect(new Set(wire.tools()).size).toBe(1);
    const conversations = wire.conversations();
    expectAppendOnly(conversations);
    // Anthropic removes it from the model's tools; tool search has no unloading.
    expect(removals(conversations.at(-1)!)).toEqual(provider === "anthropic" ? ["account_2_getBalance"] : []);
  });

  it("a delivered tool that needs approval pauses the run; resumed, it runs on its instance", async () => {
    ran.length = 0;
    const bank = new Bank();
    wire = await wireProvider(provider, [
      { calls: [["findAccounts", { owner: "Bob" }]] },
      { calls: [["account_2_withdraw", { amount: 20 }]] },
      { calls: [["account_2_getBalance", {}]] },
      { text: "Bob has 30." },
    ]);
    const paused = await runner(wire, {}, bank).run("Take 20 from Bob");
    expect(paused.status).toBe("awaiting-approval");
    expect(ran).toEqual([]);
    const resumed = await runner(wire, {}, bank).resume(paused.snapshot, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });

    expect(resumed.result).toBe("Bob has 30.");
    expect(ran).toEqual(["withdraw 2 20", "getBalance 2"]);
    expect(new Set(wire.tools()).size).toBe(1);
    // The resumed run delivers its restored tools once, after the approved call's result, then only appends.
    const conversations = wire.conversations();
    expect(JSON.stringify(conversations[2]!.at(-1))).toContain("account_2_getBalance");
    expectAppendOnly(conversations.slice(2));
  });

  it("a conversation continued from a snapshot calls the delivered tools of its first turn", async () => {
    ran.length = 0;
    const bank = new Bank();
    wire = await wireProvider(provider, [
      { calls: [["findAccounts", { owner: "Bob" }]] },
      { calls: [["account_2_getBalance", {}]] },
      { text: "50." },
      { calls: [["account_2_getBalance", {}]] },
      { text: "Still 50." },
    ]);
    const first = await runner(wire, {}, bank).run("Bob's balance?");
    const next = await runner(wire, {}, bank).run("And now?", { continueFrom: first.snapshot });

    expect(next.result).toBe("Still 50.");
    expect(ran).toEqual(["getBalance 2", "getBalance 2"]);
    expect(new Set(wire.tools()).size).toBe(1);
    expectAppendOnly(wire.conversations().slice(3));
  });
});
