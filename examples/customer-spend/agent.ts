import "../register-schemas.js";
import type { PromptRunner } from "entity-tools";
import { SpendAnswer } from "../domain/answers.js";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";
import type { ExampleAgent } from "../example-agent.js";

/**
 * The seed flow: the model only has `searchCustomer`; finding John Smith hands it his `Customer`, whose
 * `customer_c123_getAverageSpend` tool answers the question.
 */
export const customerSpend: ExampleAgent<SpendAnswer> = {
  name: "customer-spend",
  question: "What is John Smith's average monthly spend?",
  configure: <R extends PromptRunner>(runner: R): R =>
    runner
      .withSystemPrompt("You answer questions about customers. Use the tools; never guess numbers.")
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery(),
  ask: (runner, question) => runner.createObject(SpendAnswer, question),
  offlineScript: (model) =>
    model
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool(/^customer_.+_getAverageSpend$/, {})
      .respondWithObject({ customerName: "John Smith", averageMonthlySpend: 46.83, currency: "USD" }),
};
