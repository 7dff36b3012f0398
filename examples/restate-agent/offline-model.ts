// A model for running the example offline: it decides each step from the conversation alone (no state),
// so a process that restarts mid-run continues the same conversation.
import type { LanguageModelV3Content, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * What the model does next. Asked about the balance (a later turn of a conversation): the balance tool of
 * the account found earlier, then the answer. Otherwise the first tool of the plan not called yet, else
 * the answer.
 */
function next(prompt: LanguageModelV3Prompt): LanguageModelV3Content {
  const lastUser = prompt.map((m) => m.role).lastIndexOf("user");
  const asked = prompt[lastUser]?.content;
  if (Array.isArray(asked) && asked.some((p) => p.type === "text" && p.text.includes("balance now"))) {
    const results = prompt
      .slice(lastUser + 1)
      .flatMap((m) =>
        m.role === "tool"
          ? m.content.flatMap((p) =>
              p.type === "tool-result" && "value" in p.output ? [String(p.output.value)] : [],
            )
          : [],
      );
    if (results.length > 0) return { type: "text", text: `Ada's balance is ${results[0]}.` };
    return {
      type: "tool-call",
      toolCallId: `turn-${lastUser}`,
      toolName: "account_a-1_getBalance",
      input: "{}",
    };
  }
  const called = prompt.flatMap((m) =>
    m.role === "assistant" ? m.content.flatMap((p) => (p.type === "tool-call" ? [p.toolName] : [])) : [],
  );
  const step = prompt.filter((m) => m.role === "assistant").length + 1;
  const plan: [string, unknown][] = [
    ["findAccount", { email: "ada@example.com" }],
    ["account_a-1_getBalance", {}],
    ["account_a-1_refund", { amount: 20 }],
  ];
  const todo = plan.find(([name]) => !called.includes(name));
  if (!todo) return { type: "text", text: "Refunded 20 to Ada; the balance is now 100." };
  return { type: "tool-call", toolCallId: `step-${step}`, toolName: todo[0], input: JSON.stringify(todo[1]) };
}

export function offlineModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const content = next(prompt);
      const finish = content.type === "tool-call" ? "tool-calls" : "stop";
      return { content: [content], finishReason: { unified: finish, raw: undefined }, usage, warnings: [] };
    },
  });
}
