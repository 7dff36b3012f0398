// The customer-spend agent of the examples, for record and replay tests: the runner, and a scripted
// stand-in for a model behind the OpenAI Responses API that searches, calls the discovered spend tool
// once it is offered, then answers from its result.
import "../../../examples/register-schemas.js";
import { PromptRunner, type ToolLoopObserver } from "entity-tools";
import type { MockReply, ResponsesRequest } from "entity-tools/testing";
import type { LanguageModel } from "ai";
import { CustomerSearchTools } from "../../../examples/domain/customer-search-tools.js";

export const QUESTION = "What is John Smith's average monthly spend?";

export interface SpendAgentOptions {
  /** Default true; false is the change that stops the discovery. */
  readonly discovery?: boolean;
  readonly delivery?: "inline" | "deferred";
  readonly observer?: ToolLoopObserver;
}

export function spendRunner(model: LanguageModel, options: SpendAgentOptions = {}): PromptRunner {
  let runner = new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
    .withSystemPrompt("You answer questions about customers. Use the tools; never guess numbers.")
    .withTools(new CustomerSearchTools());
  if (options.discovery !== false)
    runner = runner.withToolProviderDiscovery({ delivery: options.delivery ?? "inline" });
  return options.observer ? runner.withObserver(options.observer) : runner;
}

export function spendModel(request: ResponsesRequest): MockReply {
  if (!request.calledTools.includes("searchCustomer"))
    return { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
  const spend = "customer_c123_getAverageSpend";
  if (request.offeredTools.includes(spend) && !request.calledTools.includes(spend))
    return { toolCalls: [{ name: spend, input: {} }] };
  const last = JSON.parse(request.toolResults.at(-1)!.text) as { amount: number; currency: string };
  return { text: `John Smith spends ${last.amount} ${last.currency} a month on average.` };
}
