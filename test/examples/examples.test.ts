import { describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";
import { EXAMPLES } from "../../examples/agents.js";
import { OrderSummary, SpendAnswer } from "../../examples/domain/answers.js";

const byName = (name: string) => EXAMPLES.find((e) => e.name === name)!;

async function play(name: string) {
  const agent = byName(name);
  const fake = new FakePromptRunner();
  agent.offlineScript(fake.model);
  const answer = await agent.ask(agent.configure(fake), agent.question);
  fake.verifyExpectations();
  return { fake, answer };
}

describe("examples on the scripted model", () => {
  it("customer-spend: search, discover the customer, ask for the spend", async () => {
    const { fake, answer } = await play("customer-spend");
    expect(answer).toBeInstanceOf(SpendAnswer);
    expect(fake.injectedToolNames).toEqual(["customer_c123_getAverageSpend", "customer_c123_recentOrders"]);
    expect(fake.callsAt(2)[0]!.resultText).toBe('{"amount":46.83,"currency":"USD"}');
    expect(fake.calls.map((c) => c.resultText).join()).not.toContain("s3cret");
  });

  it("orders: list discovery, then nested discovery of orders and their line items", async () => {
    const { fake, answer } = await play("orders");
    expect(answer).toBeInstanceOf(OrderSummary);
    expect(fake.steps[0]!.injected).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
      "customer_c456_getAverageSpend",
      "customer_c456_recentOrders",
    ]);
    expect(fake.steps[1]!.injected).toHaveLength(6);
    expect(JSON.parse(fake.callsAt(3)[0]!.resultText)).toEqual([
      { sku: "KB-01", description: "Mechanical keyboard", quantity: 1, unitPrice: 129 },
    ]);
  });

  it("shopping-cart: the cart's state persists across calls until checkout", async () => {
    const { fake, answer } = await play("shopping-cart");
    expect(answer).toBe("Done: two wireless mice and a desk pad, 104 USD in total.");
    expect(JSON.parse(fake.callsAt(3)[0]!.resultText)).toMatchObject({
      id: "cart1",
      lines: [
        { sku: "MS-02", quantity: 2 },
        { sku: "PD-07", quantity: 1 },
      ],
    });
    expect(fake.callsAt(4)[0]!.resultText).toBe(
      "Cart cart1 checked out: 2 x MS-02, 1 x PD-07, total 104 USD",
    );
  });
});

describe("support-desk example on the scripted model", () => {
  it("reads the summarized policy manual, which unlocks the refund tools, then refunds", async () => {
    const { fake, answer } = await play("support-desk");
    expect(answer).toMatch(/refund r-1 of 25 USD/);
    expect(fake.toolsOfferedAt(1)).toEqual(["read_section"]);
    expect(fake.steps[0]!.injected).toEqual(["checkRefundEligibility", "issueRefund"]);
    expect(fake.callsAt(3)[0]!.resultText).toBe(
      '{"refundId":"r-1","orderId":"o-1002","amount":25,"reason":"Desk pad arrived damaged"}',
    );
  });
});
