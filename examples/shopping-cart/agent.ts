import "../register-schemas.js";
import type { PromptRunner } from "entity-tools";
import { CartTools } from "../domain/shopping-cart.js";
import type { ExampleAgent } from "../example-agent.js";

/** A stateful provider: the cart the model opens keeps its lines across calls until checkout. */
export const shoppingCart: ExampleAgent<string> = {
  name: "shopping-cart",
  question: "Buy two wireless mice (MS-02) and a desk pad (PD-07), then check out and tell me the total.",
  configure: <R extends PromptRunner>(runner: R): R =>
    runner
      .withSystemPrompt("You are a shopping assistant. Use the cart tools; report the checkout total.")
      .withTools(new CartTools())
      .withToolProviderDiscovery(),
  ask: (runner, question) => runner.generateText(question),
  offlineScript: (model) =>
    model
      .callTool("createCart", {})
      .callTool("cart_cart1_addItem", { sku: "MS-02", quantity: 2 })
      .callTool("cart_cart1_addItem", { sku: "PD-07" })
      .callTool("cart_cart1_checkout", {})
      .respondWithText("Done: two wireless mice and a desk pad, 104 USD in total."),
};
