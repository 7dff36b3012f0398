// Per-instance tool names, delivered deferred: the customer-spend agent on an Anthropic model, where the
// discovered customer's tools reach the model as a mid-conversation tool change instead of joining the
// request's tool list, so the front of every request (what the prompt cache keys) never changes.
//
//   npx tsx examples/deferred-delivery/agent.ts
//
// With ANTHROPIC_API_KEY set it asks Claude (ANTHROPIC_MODEL, default claude-sonnet-4-5). Without it, the
// real @ai-sdk/anthropic provider talks to a local scripted stand-in for the Messages API, so the example
// runs offline; it prints which, and what each request carried.
import "../register-schemas.js";
import { createAnthropic } from "@ai-sdk/anthropic";
import { PromptRunner } from "entity-tools";
import { startAnthropicMessagesMock, type MessagesRequest } from "entity-tools/testing";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";

/** The offline model: search, call the spend tool once it has been delivered, answer. */
function scriptedClaude(request: MessagesRequest) {
  if (!request.calledTools.includes("searchCustomer"))
    return { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
  const delivered = request.text.includes('"name":"customer_c123_getAverageSpend"');
  if (delivered && !request.calledTools.includes("customer_c123_getAverageSpend"))
    return { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] };
  const spend = JSON.parse(request.toolResults.at(-1)!.text) as { amount: number; currency: string };
  return { text: `John Smith spends ${spend.amount} ${spend.currency} a month on average.` };
}

const online = Boolean(process.env.ANTHROPIC_API_KEY);
const mock = online ? undefined : await startAnthropicMessagesMock(scriptedClaude);
console.log(
  mock
    ? `model: local scripted Messages API at ${mock.baseURL} (set ANTHROPIC_API_KEY to ask Claude)`
    : "model: Anthropic Messages API",
);

// What the provider package sent, request by request (the same bodies online and offline).
const bodies: { tools?: unknown; system?: unknown; messages: unknown[] }[] = [];
const anthropic = createAnthropic({
  ...(mock ? { baseURL: `${mock.baseURL}/v1`, apiKey: "offline" } : {}),
  fetch: async (url, init) => {
    bodies.push(JSON.parse(String(init?.body)) as (typeof bodies)[number]);
    return fetch(url, init);
  },
});

const runner = new PromptRunner({ model: anthropic(process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5") })
  .withSystemPrompt("You answer questions about customers. Use the tools; never guess numbers.")
  .withTools(new CustomerSearchTools())
  .withToolProviderDiscovery({ delivery: "deferred" })
  .withObserver((event) => {
    if (event.type === "ToolProviderDiscovered")
      console.log(
        `+ discovered ${event.identity.providerClass} ${event.identity.id}, delivered ${event.delivery}: ${event.exposedTools.join(", ")}`,
      );
    if (event.type === "ToolInvoked") console.log(`tool  ${event.toolName} → ${event.resultText}`);
    if (event.type === "ModelWarning") console.log(`warning: ${event.message}`);
  });

try {
  const run = await runner.run("What is John Smith's average monthly spend?");
  console.log(`answer: ${run.result}`);
  const tools = new Set(bodies.map((b) => JSON.stringify(b.tools)));
  const names = (bodies[0]?.tools as { name: string }[] | undefined)?.map((t) => t.name) ?? [];
  console.log(
    `requests: ${bodies.length}; tool list identical in every request: ${tools.size === 1 ? "yes" : "no"} (${names.join(", ")})`,
  );
  const extended = bodies.every(
    (b, i) =>
      i === 0 ||
      (JSON.stringify(b.system) === JSON.stringify(bodies[i - 1]!.system) &&
        JSON.stringify(b.messages.slice(0, bodies[i - 1]!.messages.length)) ===
          JSON.stringify(bodies[i - 1]!.messages)),
  );
  console.log(`each request began with the whole previous one: ${extended ? "yes" : "no"}`);
} finally {
  await mock?.close();
}
