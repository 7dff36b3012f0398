// The chat's agent: it finds customers (their tools are discovered), tells their spend, and issues store
// credit, which waits for a person's approval. Offline, a model that reads the conversation plays it.
import "../register-schemas.js";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { defineTool, type PromptRunner, type ProviderResolver } from "entity-tools";
import type { ScriptedLanguageModel, ScriptedRequest, ScriptedTurn } from "entity-tools/testing";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";
import type { ExampleAgent } from "../example-agent.js";

const customers = new CustomerSearchTools();

/** Finds a customer again by id: what re-binds a stored conversation's discovered tools. */
export const resolveCustomer: ProviderResolver = (providerClass, id) =>
  providerClass === "Customer" ? customers.byId(String(id)) : undefined;

/** Store credit issued, in order: the side effect the approval guards. */
export const issuedCredit: string[] = [];

/** Store credit for a customer, after a person approves it. */
export const issueStoreCredit = defineTool<{ customerId: string; amount: number }>({
  name: "issueStoreCredit",
  description: "Issue store credit to a customer (a person approves it first)",
  inputSchema: {
    type: "object",
    properties: { customerId: { type: "string" }, amount: { type: "number", exclusiveMinimum: 0 } },
    required: ["customerId", "amount"],
  },
  needsApproval: true,
  execute: ({ customerId, amount }) => {
    issuedCredit.push(`${customerId} ${amount}`);
    return `Issued ${amount} USD of store credit to ${customerId}.`;
  },
});

export const chatAgent: ExampleAgent<string> = {
  name: "web-chat",
  question: "Find John Smith",
  configure: <R extends PromptRunner>(runner: R): R =>
    runner
      .withSystemPrompt(
        "You help a support agent with customers. Use the tools; never guess numbers. Tools of customers found earlier in the conversation stay available.",
      )
      .withTools(customers, issueStoreCredit)
      .withToolProviderDiscovery(),
  ask: (runner, question) => runner.generateText(question),
  // Each request builds a fresh model: enough turns for one request, each decided from the conversation.
  offlineScript: (model: ScriptedLanguageModel) => {
    for (let i = 0; i < 8; i++) model.respondWith("the offline chat", offlineTurn);
    return model;
  },
};

/** What the offline model says next: from the last user message and the tool results since. */
function offlineTurn({ options, offeredTools }: ScriptedRequest): ScriptedTurn {
  const prompt = options.prompt;
  const lastUser = prompt.map((m) => m.role).lastIndexOf("user");
  const asked = textOf(prompt[lastUser]).toLowerCase();
  const results = toolResultsAfter(prompt, lastUser);
  const call = (toolName: string, input: unknown): ScriptedTurn =>
    offeredTools.includes(toolName)
      ? { toolCalls: [{ toolName, input }] }
      : { text: `I cannot use ${toolName} now: find the customer first.` };
  if (asked.includes("find")) {
    if (results.length === 0) return call("searchCustomer", { name: "John Smith" });
    return { text: `I found John Smith (customer c123). Ask me about his spending.` };
  }
  if (asked.includes("spend")) {
    if (results.length === 0) return call("customer_c123_getAverageSpend", {});
    const { amount, currency } = JSON.parse(results[0]!) as { amount: number; currency: string };
    return { text: `John Smith spends ${amount} ${currency} a month on average.` };
  }
  if (asked.includes("credit")) {
    if (results.length === 0) return call("issueStoreCredit", { customerId: "c123", amount: 10 });
    return { text: results[0]!.startsWith("Issued") ? `Done. ${results[0]}` : `Not issued: ${results[0]}` };
  }
  return { text: "I can find customers, tell their average spend and issue store credit." };
}

function textOf(message: LanguageModelV3Prompt[number] | undefined): string {
  if (message?.role !== "user") return "";
  return message.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

function toolResultsAfter(prompt: LanguageModelV3Prompt, index: number): string[] {
  return prompt
    .slice(index + 1)
    .flatMap((m) =>
      m.role === "tool"
        ? m.content.flatMap((p) =>
            p.type === "tool-result" && "value" in p.output ? [String(p.output.value)] : [],
          )
        : [],
    );
}
