// 1. Loop overhead: our run() against what a user would write instead: the AI SDK's own multi-step loop
// (generateText with tools that execute and stopWhen), and a hand-written one-step generateText loop
// doing the same calls. Ratios are measured per interleaved round, after warm-up rounds; a sample is a block
// of runs, not one run: a run here is about a millisecond, and one collector pause or time slice of another
// process landing in it moved single-run ratios from 0.05 to 15 and their median by a fifth between
// invocations (docs/performance.md, round 13). Per-step cost at 10/20/40 steps shows whether the cost of a
// step grows with the conversation.
import type { LanguageModelV3FunctionTool, LanguageModelV3Message } from "@ai-sdk/provider";
import {
  generateText,
  jsonSchema,
  stepCountIs,
  streamText,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from "ai";
import { defineTool, PromptRunner, type AnyTool } from "entity-tools";
import {
  blockRatio,
  blockRatioRows,
  interleaved,
  median,
  ms,
  ratio,
  summary,
  type BenchRow,
  type BlockTimes,
  type RatioSummary,
} from "./measure.js";
import { ScriptedLanguageModel, type ScriptedTurn } from "entity-tools/testing";
import { playing } from "./mock-model.js";

const STEPS = 20;
const TOOL_COUNT = 10;
const ROUNDS = 31;
/** Runs of each side in a sample (a block); the hand-written loop's run is 20–50 times as long as ours. */
const BLOCK = 16;
const HAND_BLOCK = 1;

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

/** Step `step` of a `steps`-step conversation: a call of tool (step mod 10), or the answer at the last. */
function conversationTurn(step: number, steps: number): ScriptedTurn {
  return step < steps
    ? { toolCalls: [{ toolName: `tool${step % TOOL_COUNT}`, input: { query: `q${step}` } }] }
    : { text: "done" };
}

/** A model that calls tool (step mod 10) for `steps - 1` steps and answers at the last. */
function conversationModel(steps: number) {
  return playing((step) => conversationTurn(step, steps));
}

/**
 * When each model call of a `steps`-step `run()` over the static tools began (`[k]` is call k + 1), with the
 * model `mock` makes (`playing`, `forgetful` for runs too long to record every prompt, or a provider
 * package's over its wire format); `configure` adds to the runner (the run log's row adds `withRunLog`).
 */
export async function modelCallTimes(
  steps: number,
  mock: (turn: (step: number) => ScriptedTurn) => LanguageModel = playing,
  configure: (runner: PromptRunner) => PromptRunner = (runner) => runner,
  cpuAt?: number[],
): Promise<number[]> {
  const calledAt: number[] = [];
  const model = mock((step) => {
    if (cpuAt && (step === 1 || step === steps)) cpuAt.push(cpuMs());
    calledAt.push(performance.now());
    return conversationTurn(step, steps);
  });
  await configure(new PromptRunner({ model }))
    .withTools(...tools)
    .withMaxToolIterations(steps)
    .run("go");
  return calledAt;
}

/** The process's CPU time so far (user and system, every thread), ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * What a step of a `steps`-step run costs: the time from the run's first model call to its last, per
 * step (the run's set-up and its first call, which converts the caller's messages, are not in it).
 */
async function stepCost(steps: number): Promise<number> {
  const calledAt = await modelCallTimes(steps);
  return (calledAt.at(-1)! - calledAt[0]!) / (steps - 1);
}

/** The same for a streamed run (`runner.stream`, parts read as they come), on the scripted model. */
async function streamedStepCost(steps: number): Promise<number> {
  const calledAt: number[] = [];
  const stream = new PromptRunner({ model: scriptedConversation(steps, calledAt) })
    .withTools(...tools)
    .withMaxToolIterations(steps)
    .stream("go");
  for await (const _part of stream.parts);
  await stream.result;
  return (calledAt.at(-1)! - calledAt[0]!) / (steps - 1);
}

interface Growth {
  /** The median time of a step at each length (ms). */
  readonly perStep: (readonly [number, number])[];
  /** A step at 40 over a step at 10, one per round. */
  readonly growth: RatioSummary;
}

/**
 * A step's cost in 10-, 20- and 40-step runs (each sample the mean of a block of runs), and its growth
 * 10 → 40, one ratio per interleaved round. Wall time only: the process's CPU time in a run's window
 * also counts the collector's threads, which the mock model's record of every prompt (growing with the
 * square of the steps) keeps busier in longer runs.
 */
async function growth(cost: (steps: number) => Promise<number>): Promise<Growth> {
  const blockOf = (steps: number) => async (): Promise<number> => {
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += await cost(steps);
    return sum / BLOCK;
  };
  const { short, middle, long } = await interleaved(ROUNDS, {
    short: blockOf(10),
    middle: blockOf(20),
    long: blockOf(40),
  });
  return {
    perStep: [
      [10, median(short)],
      [20, median(middle)],
      [40, median(long)],
    ],
    growth: summary(long.map((c, i) => c / short[i]!)),
  };
}

/** A scripted model playing the benchmark conversation (it streams when asked to); `calledAt` hears each call. */
function scriptedConversation(
  steps: number,
  calledAt: number[] = [],
  cpuAt?: number[],
): ScriptedLanguageModel {
  const model = new ScriptedLanguageModel();
  for (let step = 1; step <= steps; step++)
    model.respondWith(`step ${step}`, () => {
      if (cpuAt && (step === 1 || step === steps)) cpuAt.push(cpuMs());
      calledAt.push(performance.now());
      return step < steps
        ? { toolCalls: [{ toolName: `tool${step % TOOL_COUNT}`, input: { query: `q${step}` } }] }
        : { text: "done" };
    });
  return model;
}

const oursStreamed = (steps: number) => async (): Promise<void> => {
  const stream = new PromptRunner({ model: scriptedConversation(steps) })
    .withTools(...tools)
    .withMaxToolIterations(steps)
    .stream("go");
  for await (const _part of stream.parts);
  await stream.result;
};

/** The AI SDK's own streamed multi-step loop, its full stream read. */
const sdkStreamLoop = (steps: number) => async (): Promise<void> => {
  const result = streamText({
    model: scriptedConversation(steps),
    prompt: "go",
    tools: executingTools(),
    stopWhen: stepCountIs(steps),
  });
  for await (const _part of result.fullStream);
};

const ours = (steps: number) => async (): Promise<void> => {
  await new PromptRunner({ model: conversationModel(steps) })
    .withTools(...tools)
    .withMaxToolIterations(steps)
    .run("go");
};

/** The AI SDK's own loop: tools that execute, stopping after `steps` steps. */
/** The benchmark's tools as the AI SDK's own loop takes them: executing, results as JSON text. */
function executingTools(): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) {
    set[t.name] = {
      description: t.description,
      inputSchema: jsonSchema(t.inputSchema as never),
      execute: async (input: unknown, { toolCallId }: { toolCallId: string }) =>
        JSON.stringify(await t.execute(input as never, { toolCallId, signal: new AbortController().signal })),
    };
  }
  return set;
}

const sdkLoop = (steps: number) => async (): Promise<void> => {
  await generateText({
    model: conversationModel(steps),
    prompt: "go",
    tools: executingTools(),
    stopWhen: stepCountIs(steps),
  });
};

const handWritten = (steps: number) => async (): Promise<void> => {
  const model = conversationModel(steps);
  const set: ToolSet = {};
  for (const t of tools)
    set[t.name] = { description: t.description, inputSchema: jsonSchema(t.inputSchema as never) };
  const messages: ModelMessage[] = [{ role: "user", content: "go" }];
  for (let i = 0; i < steps; i++) {
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
};

/**
 * The wire floor: the least a loop over an HTTP provider must do per step, written by hand on the provider
 * spec with the same mock model. Serialize the request as the provider would (JSON of the tool list and
 * the prompt, which grows), call the model, parse each call's arguments, run the tool, and append the
 * model's turn and the results to the prompt. No validation, no events, no retries, no conversion.
 */
const wireFloor = (steps: number) => async (): Promise<void> => {
  const model = conversationModel(steps);
  const definitions: LanguageModelV3FunctionTool[] = tools.map((t) => ({
    type: "function",
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as LanguageModelV3FunctionTool["inputSchema"],
  }));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const signal = new AbortController().signal;
  const prompt: LanguageModelV3Message[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
  for (let i = 0; i < steps; i++) {
    JSON.stringify({ tools: definitions, messages: prompt }); // the request body
    const { content } = await model.doGenerate({ prompt, tools: definitions });
    prompt.push({ role: "assistant", content: content as never });
    const results = [];
    for (const part of content) {
      if (part.type !== "tool-call") continue;
      const input: unknown = JSON.parse(part.input);
      const value = await byName
        .get(part.toolName)!
        .execute(input as never, { toolCallId: part.toolCallId, signal });
      results.push({
        type: "tool-result" as const,
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: { type: "text" as const, value: JSON.stringify(value) },
      });
    }
    if (results.length === 0) return;
    prompt.push({ role: "tool", content: results });
  }
};

const BENCH = "1 loop overhead";

const row = (measure: string, value: string): BenchRow => ({
  bench: BENCH,
  measure,
  value,
  goal: "",
  met: undefined,
});

/** The per-step rows of one way of running: the cost at each length, and its growth (wall time). */
function growthRows(what: string, measured: Growth): BenchRow[] {
  return [
    ...measured.perStep.map(([steps, cost]) =>
      row(`${what}: cost of a step in a ${steps}-step run (first model call to last, per step)`, ms(cost)),
    ),
    {
      ...row(
        `${what}: growth of the per-step cost, 10 → 40 steps, median (spread) of ${ROUNDS} blocks of ${BLOCK} runs`,
        ratio(measured.growth),
      ),
      goal: "≤ 1.3",
      met: measured.growth.median <= 1.3,
    },
  ];
}

/** A ratio's rows: wall time against its goal, and the process's CPU time (see {@link blockRatioRows}). */
const ratioRows = (measure: string, measured: Parameters<typeof blockRatioRows>[2], goal: number) =>
  blockRatioRows(BENCH, measure, measured, goal);

export async function loopOverhead(): Promise<BenchRow[]> {
  const vsSdk = await blockRatio(ours(STEPS), sdkLoop(STEPS), ROUNDS, BLOCK);
  const vsHand = await blockRatio(ours(STEPS), handWritten(STEPS), ROUNDS, [BLOCK, HAND_BLOCK]);
  const vsFloor = await blockRatio(ours(STEPS), wireFloor(STEPS), ROUNDS, BLOCK);
  const streamedVsSdk = await blockRatio(oursStreamed(STEPS), sdkStreamLoop(STEPS), ROUNDS, BLOCK);
  const generated = await growth(stepCost);
  const streamed = await growth(streamedStepCost);
  const blocks = `${ROUNDS} blocks of ${BLOCK} runs`;
  const perStep = (times: BlockTimes) =>
    `${((times.wall * 1000) / STEPS).toFixed(1)} µs (CPU ${((times.cpu * 1000) / STEPS).toFixed(1)} µs)`;
  return [
    ...ratioRows(
      `run() / the AI SDK's own multi-step loop, ${STEPS} steps × ${TOOL_COUNT} tools, median (spread) of ${blocks}`,
      vsSdk,
      0.5, // issue 37 (it was ≤ 1.5)
    ),
    row(`run(): a step of that conversation (whole run / ${STEPS}), median`, perStep(vsSdk.a)),
    row(`the AI SDK's own loop: a step, median`, perStep(vsSdk.b)),
    ...ratioRows(
      `run() / a hand-written one-step generateText loop, same conversation, ${ROUNDS} blocks of ${BLOCK} / ${HAND_BLOCK} runs`,
      vsHand,
      1.1,
    ),
    ...ratioRows(
      `run() / the wire floor (serialize the request, call, parse, run, append; by hand on the provider spec), same conversation, median (spread) of ${blocks}`,
      vsFloor,
      4, // issue 46
    ),
    row(`the wire floor: a step, median`, perStep(vsFloor.b)),
    ...ratioRows(
      `stream() / the AI SDK's own streamText loop, same conversation, full stream read, median (spread) of ${blocks}`,
      streamedVsSdk,
      1.5,
    ),
    ...growthRows("run()", generated),
    ...growthRows("stream()", streamed),
  ];
}
