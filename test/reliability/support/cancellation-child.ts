// One run cancelled the way a user cancels one, in a process of its own: cancellation.test.ts spawns
// `node <this file, bundled> <scenario>` (the web-chat scenario: `node --import tsx <this file>`, as that
// example runs from its source) and waits for it to exit,
// so a run that leaves a timer, a socket or a model request behind keeps it up (the test times out). The
// model is `@ai-sdk/openai` against a stand-in that can hold its reply open (held-model-server.ts); runs
// are logged (`withRunLog`) and traced (`withTelemetry`). Once every model request has ended or been
// cancelled, prints one JSON line: what each reader got, the requests the client cancelled, each run log
// file's last record, spans started and never ended, events after a run's end, unhandled rejections.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import {
  AiSdkAdapter,
  FileConversationStore,
  MarkdownSection,
  PromptRunner,
  PromptTemplate,
  SectionVisibility,
  ToolLoopError,
  defineTool,
  type ConversationStore,
  type ModelAdapter,
  type RunStream,
  type RunStreamPart,
  type ToolExecutionContext,
} from "entity-tools";
import { startHeldModelServer, type HeldModelServer, type HeldReply } from "./held-model-server.js";

const unhandled: string[] = [];
process.on("unhandledRejection", (reason) => unhandled.push(String(reason)));

const openSpans = new Set<string>();
const tracer = new BasicTracerProvider({
  spanProcessors: [
    {
      onStart: (span) => void openSpans.add(span.spanContext().spanId),
      onEnd: (span) => void openSpans.delete(span.spanContext().spanId),
      forceFlush: async () => {},
      shutdown: async () => {},
    },
  ],
}).getTracer("cancellation");

const logDir = mkdtempSync(path.join(tmpdir(), "cancellation-"));
const stop = new AbortController();
const USER_STOP = new Error("the user pressed stop");
const finishedRuns = new Set<string>();
const lateEvents: string[] = [];

/** `runner` logged, traced, and watched for events after its runs' end. */
function watched(runner: PromptRunner): PromptRunner {
  return runner
    .withRunLog(logDir)
    .withTelemetry({ tracer })
    .withObserver((event) => {
      if (finishedRuns.has(event.runId)) lateEvents.push(event.type);
      if (event.type === "RunFinished") finishedRuns.add(event.runId);
    });
}

const openai = (model: HeldModelServer) => createOpenAI({ baseURL: model.baseURL, apiKey: "k" }).chat("m");
const runnerOn = (model: HeldModelServer) =>
  watched(new PromptRunner({ model: openai(model), modelSettings: { maxRetries: 0 } }));

type Caught = { readonly name: string; readonly message: string };
const caught = (error: unknown): Caught => ({
  name: (error as Error).name,
  message: (error as Error).message,
});

/** What a run's caller got: its status, or its error (with the last tool result the history holds). */
const outcome = (run: Promise<{ status: string }>) =>
  run.then(
    (result) => ({ status: result.status }),
    (error: unknown) => ({ ...caught(error), lastToolResult: lastToolResult(error) }),
  );

function lastToolResult(error: unknown): unknown {
  if (!ToolLoopError.isInstance(error)) return undefined;
  const message = error.conversationHistory.at(-1);
  if (message?.role !== "tool") return undefined;
  const part = message.content.at(-1);
  return part?.type === "tool-result" ? part.output : undefined;
}

/** Reads `parts`, handing each to `each` (which may stop the run, break or throw); what the reader saw. */
async function read(parts: AsyncIterable<RunStreamPart>, each: (part: RunStreamPart) => boolean | void) {
  const types: string[] = [];
  try {
    for await (const part of parts) {
      types.push(part.type);
      if (each(part) === true) break;
    }
    return { types };
  } catch (error) {
    return { types, threw: caught(error) };
  }
}

const work = defineTool({ name: "work", description: "Works", execute: () => "done" });
/** A tool's work that the user stops: it stops the run, and ends when its own signal says so. */
const stopsThenWaits = (_input: unknown, { signal }: ToolExecutionContext) =>
  new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason as Error));
    stop.abort(USER_STOP);
  });
const firstText = (part: RunStreamPart) => part.type === "text-delta";

/** A byte stream read until a chunk holds `text`. */
async function readUntil(body: ReadableStream<Uint8Array>, text: string) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (let seen = ""; !seen.includes(text);) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before ${text}: ${seen}`);
    seen += decoder.decode(value, { stream: true });
  }
  return reader;
}

const listening = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
/** Stops a server once its requests are answered (its clients' idle connections closed too). */
const closed = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * A model whose streamed answers are made one part at a time, as they are read (a pull stream with no
 * buffer of its own, as a provider's HTTP body behind TCP's flow control): `counted.produced` counts the
 * text parts made so far. Its first answer is `DELTAS` words and a call of `work`, its second `DELTAS`
 * words. It stops at its request's abort, as a provider's request does.
 */
const DELTAS = 1_000;
const counted = { produced: 0, read: 0, maxAhead: { first: 0, second: 0 } };
const countingModel: LanguageModelV3 = {
  specificationVersion: "v3",
  provider: "counting",
  modelId: "counting",
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error("streamed runs only")),
  doStream: (options: LanguageModelV3CallOptions) => {
    const first = !JSON.stringify(options.prompt).includes('"tool-result"');
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...Array.from({ length: DELTAS }, () => ({ type: "text-delta" as const, id: "t", delta: "word " })),
      { type: "text-end", id: "t" },
      ...(first ? [{ type: "tool-call" as const, toolCallId: "c1", toolName: "work", input: "{}" }] : []),
      {
        type: "finish",
        finishReason: { unified: first ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
      },
    ];
    let next = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>(
      {
        pull(controller) {
          if (options.abortSignal?.aborted) return controller.error(options.abortSignal.reason);
          const part = parts[next++];
          if (!part) return controller.close();
          if (part.type === "text-delta") counted.produced++;
          controller.enqueue(part);
        },
      },
      { highWaterMark: 0 },
    );
    return Promise.resolve({ stream });
  },
};
const countingRunner = () => watched(new PromptRunner({ model: countingModel })).withTools(work);
/** Turns of the event loop: a reader busy elsewhere (the run, unchecked, goes on meanwhile). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

type Scenario = (model: HeldModelServer) => Promise<Record<string, unknown>>;

/** Each scenario, and the model's reply to its n-th request. */
const scenarios: Record<string, { readonly reply: (n: number) => HeldReply; readonly run: Scenario }> = {
  "abort while text streams": {
    reply: () => ({ text: "Hello there ", hold: true }), // the rest is still to come
    run: async (model) => {
      const stream = runnerOn(model).stream("hi", { signal: stop.signal });
      const parts = await read(stream.parts, (part) => {
        if (part.type === "text-delta" && part.text === "there ") stop.abort(USER_STOP);
      });
      return { parts, caller: await outcome(stream.result) };
    },
  },
  "abort at the first of several text parts already received": {
    reply: () => ({ text: "Hello there my friend ", hold: true }),
    run: async (model) => {
      const stream = runnerOn(model).stream("hi", { signal: stop.signal });
      const parts = await read(stream.parts, (part) => {
        if (part.type === "text-delta") stop.abort(USER_STOP);
      });
      return { parts, caller: await outcome(stream.result) };
    },
  },
  "a reader slower than the run": {
    reply: () => ({ text: "unused" }),
    run: async () => {
      const stream = countingRunner().stream("hi");
      const types = new Set<string>();
      for await (const part of stream.parts) {
        types.add(part.type);
        counted.read += part.type === "text-delta" ? 1 : 0;
        // By step: on ai 6 the SDK's `streamText` (a run's first step) reads its provider ahead of us.
        const ahead = counted.produced - counted.read;
        if (counted.produced <= DELTAS) counted.maxAhead.first = Math.max(counted.maxAhead.first, ahead);
        else counted.maxAhead.second = Math.max(counted.maxAhead.second, ahead);
        await turns(1); // one part per turn of the event loop
      }
      return { types: [...types], counted, caller: await outcome(stream.result) };
    },
  },
  "a UI message stream read slower than the run": {
    reply: () => ({ text: "unused" }),
    run: async () => {
      const stream = countingRunner().stream("hi");
      const reader = stream.toUIMessageStream().getReader();
      const types = new Set<string>();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        types.add(next.value.type);
        counted.read += next.value.type === "text-delta" ? 1 : 0;
        const ahead = counted.produced - counted.read;
        if (counted.produced <= DELTAS) counted.maxAhead.first = Math.max(counted.maxAhead.first, ahead);
        else counted.maxAhead.second = Math.max(counted.maxAhead.second, ahead);
        await turns(1); // one chunk per turn of the event loop: a client on a slow connection
      }
      return { types: [...types], counted, caller: await outcome(stream.result) };
    },
  },
  "nobody reads parts; the caller awaits result": {
    reply: () => ({ text: "unused" }),
    run: async () => {
      const stream = countingRunner().stream("hi");
      const caller = await outcome(stream.result);
      const lateReader = await read(stream.parts, () => {});
      return { counted, caller, lateReader };
    },
  },
  "abort while the run waits for its reader": {
    reply: () => ({ text: "unused" }),
    run: async () => {
      const stream = countingRunner().stream("hi", { signal: stop.signal });
      const reader = stream.parts[Symbol.asyncIterator]();
      await reader.next();
      await turns(200); // the reader reads nothing meanwhile: the run waits for it
      const producedAtAbort = counted.produced;
      stop.abort(USER_STOP);
      const parts = await read({ [Symbol.asyncIterator]: () => reader }, () => {});
      return { producedAtAbort, parts, caller: await outcome(stream.result) };
    },
  },
  "abort while run() waits for the model": {
    reply: () => {
      stop.abort(USER_STOP);
      return { text: "never sent", hold: true };
    },
    run: async (model) => ({ caller: await outcome(runnerOn(model).run("hi", { signal: stop.signal })) }),
  },
  "abort with a string as the reason": {
    reply: () => {
      stop.abort("the page went away");
      return { text: "never sent", hold: true };
    },
    run: async (model) => ({ caller: await outcome(runnerOn(model).run("hi", { signal: stop.signal })) }),
  },
  "abort during a tool call that honours its signal": {
    reply: () => ({ call: "wait" }),
    run: async (model) => {
      const wait = defineTool({ name: "wait", description: "Waits until stopped", execute: stopsThenWaits });
      return { caller: await outcome(runnerOn(model).withTools(wait).run("hi", { signal: stop.signal })) };
    },
  },
  "abort during a tool call that ignores its signal and resolves after the run ended": {
    reply: () => ({ call: "stubborn" }),
    run: async (model) => {
      let runEnded!: () => void;
      const ended = new Promise<void>((resolve) => (runEnded = resolve));
      const stubborn = defineTool({
        name: "stubborn",
        description: "Finishes whatever happens",
        execute: () => {
          stop.abort(USER_STOP);
          return ended.then(() => "finished anyway");
        },
      });
      const run = runnerOn(model).withTools(stubborn).run("hi", { signal: stop.signal });
      run.then(runEnded, runEnded);
      return { caller: await outcome(run) };
    },
  },
  "abort while the approval predicate decides": {
    reply: () => ({ call: "work" }),
    run: async (model) => {
      const runner = runnerOn(model)
        .withTools(work)
        .withApproval(() => {
          stop.abort(USER_STOP);
          return new Promise<boolean>(() => {}); // a person who never answers
        });
      return { caller: await outcome(runner.run("hi", { signal: stop.signal })) };
    },
  },
  "abort a resumed run's approved call": {
    reply: () => ({ call: "refund" }),
    run: async (model) => {
      const refund = defineTool({
        name: "refund",
        description: "Refunds, once approved",
        needsApproval: true,
        execute: stopsThenWaits,
      });
      const runner = runnerOn(model).withTools(refund);
      const paused = await runner.run("hi");
      const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true } };
      const resumed = runner.resumeStream(paused.snapshot, { approvals, signal: stop.signal });
      return {
        paused: paused.status,
        parts: await read(resumed.parts, () => {}),
        caller: await outcome(resumed.result),
      };
    },
  },
  "abort during the restart read_section asks for": {
    reply: () => ({ call: "read_section", input: { section_key: "policies" } }),
    run: async (model) => {
      const sdk = new AiSdkAdapter(openai(model), { maxRetries: 0 });
      // A backend that cannot add tools mid-conversation (as Codex): reading the section restarts the run.
      const adapter: ModelAdapter = {
        supportsDynamicTools: false,
        step: (request) => sdk.step(request),
        stream: (request, onPart) => sdk.stream(request, onPart),
      };
      const template = new PromptTemplate({
        ns: "t",
        key: "t",
        sections: [
          new MarkdownSection({
            key: "policies",
            title: "Policies",
            template: "Refund damaged items.",
            summary: "Refunds.",
            visibility: SectionVisibility.SUMMARY,
            tools: [work],
          }),
        ],
      });
      const runner = watched(new PromptRunner({ adapter }))
        .withSystemPrompt(template)
        .withObserver((event) => {
          if (event.type === "RunRestarted") stop.abort(USER_STOP);
        });
      const stream = runner.stream("hi", { signal: stop.signal });
      return { parts: await read(stream.parts, () => {}), caller: await outcome(stream.result) };
    },
  },
  "a signal aborted before the run starts": {
    reply: () => ({ text: "never asked" }),
    run: async (model) => {
      stop.abort(USER_STOP);
      return { caller: await outcome(runnerOn(model).run("hi", { signal: stop.signal })) };
    },
  },
  "the reader breaks out of for await": {
    reply: () => ({ text: "Hello there friend", hold: true }),
    run: async (model) => {
      const stream = runnerOn(model).stream("hi");
      return { parts: await read(stream.parts, firstText), caller: await outcome(stream.result) };
    },
  },
  "the reader throws": {
    reply: () => ({ text: "Hello there friend", hold: true }),
    run: async (model) => {
      const stream = runnerOn(model).stream("hi");
      const parts = await read(stream.parts, (part) => {
        if (firstText(part)) throw new Error("the reader's own bug");
      });
      return { parts, caller: await outcome(stream.result) };
    },
  },
  "the UI stream response's body is cancelled": {
    reply: () => ({ text: "Hello there friend", hold: true }),
    run: async (model) => {
      const stream = runnerOn(model).stream("hi");
      const reader = await readUntil(stream.toUIMessageStreamResponse().body!, '"text-delta"');
      await reader.cancel();
      return { caller: await outcome(stream.result) };
    },
  },
  "the client of pipeUIMessageStreamToResponse leaves": {
    reply: () => ({ text: "Hello there friend", hold: true }),
    run: async (model) => {
      let stream!: RunStream<string>;
      const page = createServer((_req, res) => {
        stream = runnerOn(model).stream("hi");
        stream.pipeUIMessageStreamToResponse(res);
      });
      const client = new AbortController();
      const response = await fetch(await listening(page), { signal: client.signal });
      await readUntil(response.body!, '"text-delta"');
      client.abort();
      const caller = await outcome(stream.result);
      await closed(page);
      return { caller };
    },
  },
  "examples/web-chat: the page leaves while the answer streams": {
    reply: (n) => (n === 1 ? { text: "Hello there friend", hold: true } : { text: "Welcome back" }),
    run: async (model) => {
      const dir = mkdtempSync(path.join(tmpdir(), "cancellation-chat-"));
      const files = new FileConversationStore(dir);
      // The turn's claim is the first write; its end (the failed run's snapshot kept) the second.
      let ended!: () => void;
      const turnEnded = new Promise<void>((resolve) => (ended = resolve));
      let writes = 0;
      const store: ConversationStore = {
        get: (id) => files.get(id),
        put: async (...write) => {
          const version = await files.put(...write);
          if (++writes === 2) ended();
          return version;
        },
      };
      // Loaded here, by the one scenario that needs it: the others run bundled, without it (see cancellation.test.ts).
      const { startWebChat } = await import("../../../examples/web-chat/server.js");
      const { url, server } = await startWebChat(0, {
        env: { OPENAI_BASE_URL: model.baseURL },
        modelId: "m",
        store,
      });
      const ask = (id: string, signal?: AbortSignal) =>
        fetch(`${url}/api/chat`, {
          method: "POST",
          body: JSON.stringify({
            id: "c",
            messages: [{ id, role: "user", parts: [{ type: "text", text: "Hi" }] }],
          }),
          signal,
        });
      const page = new AbortController();
      await readUntil((await ask("1", page.signal)).body!, '"text-delta"');
      page.abort();
      await model.settled(); // the model request is cancelled (else this waits for ever)
      await turnEnded;
      const next = await ask("2"); // the conversation goes on from the stopped turn
      const reply = { status: next.status, text: await next.text() };
      await closed(server);
      rmSync(dir, { recursive: true, force: true });
      return { nextTurn: { status: reply.status, answered: reply.text.includes('"delta":"back"') } };
    },
  },
};

/** The last record of each run log file, oldest file first. */
function logEnds(): unknown[] {
  return readdirSync(logDir)
    .filter((file) => file.endsWith(".jsonl"))
    .sort()
    .map((file) => {
      const lines = readFileSync(path.join(logDir, file), "utf8").trim().split("\n");
      const { type, status, error } = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
      return { type, status, error };
    });
}

const scenario = scenarios[process.argv[2] ?? ""];
if (!scenario)
  throw new Error(`unknown scenario ${process.argv[2]}; known: ${Object.keys(scenarios).join(", ")}`);
const model = await startHeldModelServer(scenario.reply);
const seen = await scenario.run(model);
await model.settled();
await model.close();
await new Promise((resolve) => setImmediate(resolve)); // a late tool result would be handled by now
process.stdout.write(
  JSON.stringify({
    ...seen,
    requests: model.requests(),
    cancelled: model.cancelled,
    log: logEnds(),
    openSpans: openSpans.size,
    lateEvents,
    unhandled,
  }) + "\n",
);
rmSync(logDir, { recursive: true, force: true });
