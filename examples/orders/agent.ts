import "../register-schemas.js";
import type { PromptRunner } from "entity-tools";
import { OrderSummary } from "../domain/answers.js";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";
import type { ExampleAgent } from "../example-agent.js";

/**
 * List and nested discovery: a search returns several customers (each gets its tools), a customer's
 * `recentOrders` returns `Order` providers, and an order's `getLineItems` tool answers the question.
 */
export const orders: ExampleAgent<OrderSummary> = {
  name: "orders",
  question: "Which Smith bought a keyboard, what are their order ids, and what was in their latest order?",
  configure: <R extends PromptRunner>(runner: R): R =>
    runner
      .withSystemPrompt("You answer questions about customers and their orders. Use the tools.")
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery(),
  ask: (runner, question) => runner.createObject(OrderSummary, question),
  offlineScript: (model) =>
    model
      .callTool("findCustomers", { text: "Smith" })
      .callTool("customer_c123_recentOrders", { limit: 5 })
      .callTool("order_o-1001_getLineItems", {})
      .respondWithObject({
        customerName: "John Smith",
        orderIds: ["o-1001", "o-1002", "o-1003"],
        latestOrderItems: ["1 x Mechanical keyboard"],
      }),
};
