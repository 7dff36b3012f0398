// A doc-heavy prompt for the token benchmark: six reference sections of several hundred tokens each,
// two of which carry tools.
import { defineTool, MarkdownSection, PromptTemplate, SectionVisibility, type AnyTool } from "entity-tools";

const TOPICS = ["refunds", "shipping", "warranty", "privacy", "billing", "accounts"] as const;

/** Deterministic, varied policy prose: numbered rules with conditions, amounts and deadlines. */
function policyText(topic: string, rules: number): string {
  const verbs = ["must", "should", "may", "must never", "is expected to"];
  const actors = ["the agent", "the customer", "a supervisor", "the billing team", "the warehouse"];
  const objects = [
    "confirm the order number",
    "record the reason in the ticket",
    "attach a photo of the item",
    "check the delivery date",
    "escalate to tier two",
    "offer store credit first",
  ];
  return Array.from({ length: rules }, (_, i) => {
    const days = 7 + ((i * 11) % 53);
    const amount = 20 + ((i * 37) % 480);
    return `${i + 1}. For ${topic} cases above ${amount} USD, ${actors[i % actors.length]} ${verbs[i % verbs.length]} ${objects[i % objects.length]} within ${days} days; exceptions need written approval and a note explaining why rule ${i + 1} does not apply.`;
  }).join("\n");
}

function topicTools(topic: string): AnyTool[] {
  const schema = {
    type: "object" as const,
    properties: {
      orderId: { type: "string", description: "The order the case is about, e.g. o-1002" },
      amount: { type: "number", description: "Amount in USD" },
      note: { type: "string", description: "A short note for the case file" },
    },
    required: ["orderId"],
    additionalProperties: false,
  };
  return ["check", "apply", "escalate"].map((action) =>
    defineTool({
      name: `${topic}_${action}`,
      description: `${action} a ${topic} case according to the ${topic} policy`,
      inputSchema: schema,
      execute: () => `${topic} ${action} done`,
    }),
  );
}

/** The manual; `tooled` topics carry tools. */
export function referenceManual(visibility: SectionVisibility): PromptTemplate {
  const tooled = new Set(["refunds", "warranty"]);
  return new PromptTemplate({
    ns: "bench",
    key: "manual",
    sections: [
      new MarkdownSection({
        key: "role",
        title: "Role",
        template: "You are the support agent of Acme. Be exact and brief.",
      }),
      ...TOPICS.map(
        (topic) =>
          new MarkdownSection({
            key: topic,
            title: `${topic[0]!.toUpperCase()}${topic.slice(1)} policy`,
            template: policyText(topic, 24),
            summary: `Rules for ${topic} cases${tooled.has(topic) ? ", and the tools to act on them" : ""}.`,
            visibility,
            tools: tooled.has(topic) ? topicTools(topic) : [],
          }),
      ),
    ],
  });
}
