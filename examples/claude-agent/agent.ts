// The customer-spend agent on Claude Code (the Claude Agent SDK's binary) instead of an AI SDK model.
//
//   npx tsx examples/claude-agent/agent.ts
//
// With ANTHROPIC_API_KEY set it asks Claude. Without it, Claude Code (still the real binary) talks to a
// local scripted stand-in for the Messages API, so the example runs offline; it prints which.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PromptRunner } from "entity-tools";
import { ClaudeAgentSdkAdapter } from "entity-tools/claude";
import { startAnthropicMessagesMock, type MessagesRequest } from "entity-tools/testing";
import { customerSpend } from "../customer-spend/agent.js";

/** Claude Code offers our tools as `mcp__<server>__<tool>`; the server is called "tools" by default. */
const seen = (tool: string) => `mcp__tools__${tool}`;

/** The offline model: search, call the spend tool once it is offered, answer with the structured output. */
function scriptedClaude(request: MessagesRequest) {
  if (!request.offeredTools.includes(seen("customer_c123_getAverageSpend")))
    return { toolCalls: [{ name: seen("searchCustomer"), input: { name: "John Smith" } }] };
  if (!request.calledTools.includes(seen("customer_c123_getAverageSpend")))
    return { toolCalls: [{ name: seen("customer_c123_getAverageSpend"), input: {} }] };
  const answer = { customerName: "John Smith", averageMonthlySpend: 46.83, currency: "USD" };
  return { toolCalls: [{ name: "StructuredOutput", input: answer }] };
}

const online = Boolean(process.env.ANTHROPIC_API_KEY);
const mock = online ? undefined : await startAnthropicMessagesMock(scriptedClaude);
console.log(
  online
    ? "model: Claude (ANTHROPIC_API_KEY is set)"
    : `model: local scripted Messages API at ${mock!.baseURL} (set ANTHROPIC_API_KEY to ask Claude)`,
);

const adapter = new ClaudeAgentSdkAdapter({
  env: mock
    ? {
        ANTHROPIC_BASE_URL: mock.baseURL,
        ANTHROPIC_API_KEY: "offline",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        // Claude Code keeps its config here, not in your home directory.
        CLAUDE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "claude-agent-example-")),
      }
    : {},
  model: process.env.CLAUDE_MODEL ?? "claude-sonnet-4-5",
});
const runner = customerSpend.configure(new PromptRunner({ adapter })).withObserver((event) => {
  if (event.type === "ToolInvoked") console.log(`tool  ${event.toolName} → ${event.resultText}`);
  if (event.type === "ToolsInjected")
    console.log(`+ injected, offered in Claude Code's next request: ${event.toolNames.join(", ")}`);
});

try {
  const answer = await customerSpend.ask(runner, customerSpend.question);
  console.log(`answer: ${JSON.stringify(answer)}`);
  if (mock) console.log(`Claude Code made ${mock.requests.length} model requests`);
} finally {
  await mock?.close();
}
