// 1. Loop overhead: our run() against a hand-written one-step generateText loop doing the same calls.
import { generateText, jsonSchema, type ModelMessage, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { defineTool, PromptRunner, type AnyTool } from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { ms, sideBySide, type BenchRow } from "./measure.js";

const STEPS = 20;
const TOOL_COUNT = 10;

const tools: AnyTool[] = Array.from({ length: TOOL_COUNT }, (_, i) =>
  defineTool<{ query: string }>({
    name: `tool${i}`,
    description: `Static tool number ${i}`,
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" } },
      required: ["query"],
      additionalProperties: false,
    },
    execute: ({ query }) => ({ tool: i, query, rows: [1, 2, 3] }),
  }),
);

/** A model that calls tool (step mod 10) for 19 steps and answers at step 20. */
function conversationModel(): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      return generateResult(
        step < STEPS
          ? { toolCalls: [{ toolName: `tool${step % TOOL_COUNT}`, input: { query: `q${step}` } }] }
          : { text: "done" },
      );
    },
  });
}

async function ours(): Promise<void> {
  await new PromptRunner({ model: conversationModel() })
    .withTools(...tools)
    .withMaxToolIterations(STEPS)
    .run("go");
}

async function handWritten(): Promise<void> {
  const model = conversationModel();
  const set: ToolSet = {};
  for (const t of tools)
    set[t.name] = { description: t.description, inputSchema: jsonSchema(t.inputSchema as never) };
  const messages: ModelMessage[] = [{ role: "user", content: "go" }];
  for (let i = 0; i < STEPS; i++) {
    const result = await generateText({ model, messages, tools: set });
    messages.push(...result.response.messages);
    if (result.toolCalls.length === 0) return;
    messages.push({
      role: "tool",
      content: await Promise.all(
        result.toolCalls.map(async (c) => {
          const tool = tools.find((t) => t.name === c.toolName)!;
          const value = await tool.execute(c.input as never, {
            toolCallId: c.toolCallId,
            signal: new AbortController().signal,
          });
          return {
            type: "tool-result" as const,
            toolCallId: c.toolCallId,
            toolName: c.toolName,
            output: { type: "text" as const, value: JSON.stringify(value) },
          };
        }),
      ),
    });
  }
}

export async function loopOverhead(): Promise<BenchRow[]> {
  const [oursMs, baseMs] = await sideBySide(ours, handWritten, 60, 10);
  const ratio = oursMs / baseMs;
  return [
    {
      bench: "1 loop overhead",
      measure: `hand-written generateText loop, ${STEPS} steps × ${TOOL_COUNT} tools`,
      value: ms(baseMs),
      goal: "",
      met: undefined,
    },
    {
      bench: "1 loop overhead",
      measure: "entity-tools run(), same conversation",
      value: ms(oursMs),
      goal: "",
      met: undefined,
    },
    {
      bench: "1 loop overhead",
      measure: "ratio run() / hand-written",
      value: ratio.toFixed(3),
      goal: "≤ 1.10",
      met: ratio <= 1.1,
    },
    {
      bench: "1 loop overhead",
      measure: "overhead per step",
      value: ms((oursMs - baseMs) / STEPS),
      goal: "",
      met: undefined,
    },
  ];
}
