// A stand-in for a model behind the OpenAI Responses API, used only to make the shipped recordings
// offline (record-offline.ts): there is no API key where this repository is built. It answers each request
// from what the request carries (the question, the tools offered, deferred ones included, the results read
// so far), as a tool-using model would, in every binding mode: it calls `customer_c123_getAverageSpend`
// when that is offered, or `customer_getAverageSpend` with the handle a result gave it. It takes one
// shortcut weaker models take: asked about several customers, it answers after the first, so the eval
// shows what a miss looks like ("offered, not chosen").
import type { MockReply, ResponsesRequest } from "entity-tools/testing";

interface Found {
  readonly id: string;
  readonly name: string;
}

export function standInModel(request: ResponsesRequest): MockReply {
  const question = userText(request);
  const method = /order/i.test(question) ? "recentOrders" : "getAverageSpend";
  const results = request.toolResults.map((r) => r.text);
  const last = results.at(-1) ?? "";
  if (results.length === 0) {
    const named = /named (\w+)/.exec(question);
    if (named) return call("findCustomers", { text: named[1] });
    const person = /([A-Z][a-z]+(?: [A-Z][a-z]+)?)(?:'s| spend| order)/.exec(question);
    return call("searchCustomer", { name: person?.[1] ?? question });
  }
  const missing = /^No customer is named "(.+)"$/.exec(last);
  if (missing) return call("findCustomers", { text: missing[1] });
  const found = customersIn(results);
  const target = found[0]; // the shortcut: only the first customer found
  if (target && !request.calledTools.some((t) => t.endsWith(method))) {
    const own = `customer_${target.id}_${method}`;
    if (request.offeredTools.includes(own)) return call(own, {});
    const handle = new RegExp(`Customer:${target.id}~[A-Za-z0-9_-]{22}`).exec(results.join("\n"))?.[0];
    if (handle && request.offeredTools.includes(`customer_${method}`))
      return call(`customer_${method}`, { handle });
  }
  return { text: answer(target, method, last) };
}

function call(name: string, input: unknown): MockReply {
  return { toolCalls: [{ name, input }] };
}

/** The user's question: the text of the first user message (a string `input` is one). */
function userText(request: ResponsesRequest): string {
  const { input } = request.body;
  if (typeof input === "string") return input;
  const user = input.find((item) => item.role === "user");
  const content = user?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join(" ") : "";
}

/** The customers the results named, first found first. */
function customersIn(results: readonly string[]): Found[] {
  const found = new Map<string, Found>();
  for (const text of results)
    for (const m of text.matchAll(/"id":"(c\d+)","name":"([^"]+)"/g))
      if (!found.has(m[1]!)) found.set(m[1]!, { id: m[1]!, name: m[2]! });
  return [...found.values()];
}

function answer(target: Found | undefined, method: string, last: string): string {
  if (!target) return "I found no such customer.";
  if (method === "getAverageSpend") {
    const spend = /"amount":([\d.]+),"currency":"(\w+)"/.exec(last);
    return spend
      ? `${target.name} spends ${spend[1]} ${spend[2]} a month on average.`
      : `I could not get ${target.name}'s spend.`;
  }
  const order = /"id":"(o-\d+)"/.exec(last);
  return order
    ? `${target.name}'s most recent order is ${order[1]}.`
    : `I found no orders of ${target.name}.`;
}
