// The prompts the eval asks, each with the tool calls a good run makes. The expectations name a tool by a
// pattern and the customer it must run on, so one list fits every binding mode: `/getAverageSpend$/` on
// Customer c123 is `customer_c123_getAverageSpend` (per-instance, deferred) or `customer_getAverageSpend`
// with c123's handle (handles).
import type { ExpectedToolCall, ScoreToolUseOptions } from "entity-tools/testing";

/** One prompt of the eval and what a good run calls. */
export interface EvalCase {
  readonly id: string;
  readonly prompt: string;
  readonly expected: readonly ExpectedToolCall[];
  readonly options?: ScoreToolUseOptions;
}

const customer = (id: string) => ({ providerClass: "Customer", id });

export const EVAL_CASES: readonly EvalCase[] = [
  {
    id: "spend",
    prompt: "What is John Smith's average monthly spend?",
    expected: ["searchCustomer", { tool: /getAverageSpend$/, provider: customer("c123") }],
  },
  {
    id: "orders",
    prompt: "What did Jane Smith order most recently?",
    expected: ["searchCustomer", { tool: /recentOrders$/, provider: customer("c456") }],
  },
  {
    id: "smiths",
    prompt: "Compare the average monthly spend of the customers named Smith.",
    expected: [
      "findCustomers",
      { tool: /getAverageSpend$/, provider: customer("c123") },
      { tool: /getAverageSpend$/, provider: customer("c456") },
    ],
    options: { order: "any" },
  },
  {
    id: "ahmed",
    prompt: "How much does Ahmed spend per month?",
    expected: [{ tool: /getAverageSpend$/, provider: customer("c789") }],
  },
];
