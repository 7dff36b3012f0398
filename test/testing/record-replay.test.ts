// recordModel and ReplayLanguageModel around the real @ai-sdk/openai Responses provider, against the
// local Responses API stand-in: what a cassette holds (and never holds), and a replay that goes as the
// recorded run went, or fails naming the step and the difference.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { customProvider } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError, PromptRunner, defineTool, type RunSnapshot } from "entity-tools";
import {
  CassetteError,
  FakePromptRunner,
  ReplayLanguageModel,
  ReplayMismatchError,
  RunRecorder,
  readCassette,
  recordModel,
  scoreToolUse,
  startOpenAiResponsesMock,
  type Cassette,
  type OpenAiResponsesMock,
} from "entity-tools/testing";
import { QUESTION, spendModel, spendRunner } from "./support/spend-agent.js";
import { CustomerSearchTools } from "../../examples/domain/customer-search-tools.js";
import { tempDir } from "../support/temp-dir.js";

const KEY = "sk-test-SECRET-KEY-0123456789";
const AUTH = "Bearer SECRET-AUTH-TOKEN-abcdef";
const AZURE_KEY = "SECRET-API-KEY-VALUE-42";

let mock: OpenAiResponsesMock;
const dir = tempDir("cassettes-");
beforeAll(async () => (mock = await startOpenAiResponsesMock(spendModel)));
afterAll(() => mock.close());

/** The real provider, with a key and two auth headers, whose responses echo them back in a header. */
function openaiModel() {
  return createOpenAI({
    baseURL: mock.baseURL,
    apiKey: KEY,
    headers: { Authorization: AUTH, "api-key": AZURE_KEY },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      const headers = new Headers(response.headers);
      headers.set("x-echo", `${String(new Headers(init?.headers).get("authorization"))} ${AZURE_KEY}`);
      return new Response(response.body, { status: response.status, headers });
    },
  }).responses("gpt-test");
}

/** What a user compares between a run and its replay: the answer, each step's tools and calls. */
function seen(recorder: RunRecorder) {
  return recorder.steps.map((s) => ({
    offered: s.toolsOffered,
    calls: s.calls.map((c) => ({ tool: c.toolName, input: c.input, result: c.resultText })),
  }));
}

async function record(file: string, how: "run" | "stream", delivery: "inline" | "deferred" = "inline") {
  const recorder = new RunRecorder();
  const runner = spendRunner(recordModel(openaiModel(), file), { observer: recorder.observe, delivery });
  const run = how === "run" ? await runner.run(QUESTION) : await runner.stream(QUESTION).result;
  return { result: run.result, steps: seen(recorder) };
}

/** `work` against a new mock (whose ids start from 1 again), the file's own back after it. */
async function onNewMock<T>(work: () => Promise<T>): Promise<T> {
  const shared = mock;
  mock = await startOpenAiResponsesMock(spendModel);
  try {
    return await work();
  } finally {
    await mock.close();
    mock = shared;
  }
}

async function replay(file: string, how: "run" | "stream", options: { discovery?: boolean } = {}) {
  const recorder = new RunRecorder();
  const model = await ReplayLanguageModel.fromFile(file);
  const runner = spendRunner(model, { observer: recorder.observe, ...options });
  const run = how === "run" ? await runner.run(QUESTION) : await runner.stream(QUESTION).result;
  return { result: run.result, steps: seen(recorder), model };
}

describe("recordModel", () => {
  it("writes each model call: the tools offered and the answer, never the key or an auth header", async () => {
    const file = path.join(dir, "spend.json");
    const recorded = await onNewMock(() => record(file, "run"));
    expect(recorded.result).toBe("John Smith spends 46.83 USD a month on average.");
    const text = readFileSync(file, "utf8");
    for (const secret of [KEY, AUTH, "SECRET-AUTH-TOKEN", AZURE_KEY]) expect(text).not.toContain(secret);
    // It holds what the model said: for its owner only, as the library's other files of users' words.
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(text).not.toMatch(/authorization|api-key|x-echo/i);
    // Nor the prompt: a cassette holds answers and tool names only.
    expect(text).not.toContain("never guess numbers");

    const cassette = JSON.parse(text) as Cassette;
    expect(cassette).toMatchObject({
      format: "entity-tools/cassette",
      version: 1,
      model: { provider: "openai.responses", modelId: "gpt-test" },
    });
    expect(cassette.steps.map((s) => s.request.tools)).toEqual([
      ["searchCustomer", "findCustomers"],
      ["searchCustomer", "findCustomers", "customer_c123_getAverageSpend", "customer_c123_recentOrders"],
      ["searchCustomer", "findCustomers", "customer_c123_getAverageSpend", "customer_c123_recentOrders"],
    ]);
    expect(cassette.steps[0]!.response).toMatchObject({
      kind: "generate",
      content: [{ type: "tool-call", toolName: "searchCustomer", input: '{"name":"John Smith"}' }],
    });
    // Stable: keys in a fixed order, so the same answers recorded again write the same bytes (each from a
    // new mock: one mock gives each response ids of its own, as the API does).
    await onNewMock(() => record(file, "run"));
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("records a streamed run as its stream parts, keys and headers left out too", async () => {
    const file = path.join(dir, "spend-stream.json");
    const recorded = await record(file, "stream");
    expect(recorded.result).toBe("John Smith spends 46.83 USD a month on average.");
    const text = readFileSync(file, "utf8");
    for (const secret of [KEY, "SECRET-AUTH-TOKEN", AZURE_KEY]) expect(text).not.toContain(secret);
    const cassette = JSON.parse(text) as Cassette;
    expect(cassette.steps.map((s) => s.response.kind)).toEqual(["stream", "stream", "stream"]);
    const parts = (cassette.steps[2]!.response as unknown as { parts: { type: string; delta?: string }[] })
      .parts;
    expect(
      parts
        .filter((p) => p.type === "text-delta")
        .map((p) => p.delta)
        .join(""),
    ).toBe(recorded.result);
  });
});

describe("ReplayLanguageModel", () => {
  it("replays a recorded run with the same answer, tool sets and calls, run or streamed either way", async () => {
    const generateFile = path.join(dir, "replay-generate.json");
    const streamFile = path.join(dir, "replay-stream.json");
    const recorded = await record(generateFile, "run");
    expect(await record(streamFile, "stream")).toEqual(recorded);
    const requests = mock.requests.length;
    for (const [file, how] of [
      [generateFile, "run"],
      [generateFile, "stream"],
      [streamFile, "run"],
      [streamFile, "stream"],
    ] as const) {
      const replayed = await replay(file, how);
      expect({ result: replayed.result, steps: replayed.steps }).toEqual(recorded);
      expect(replayed.model.remainingSteps).toBe(0);
    }
    expect(mock.requests.length).toBe(requests); // no request reached the API
  });

  it("fails naming the step and the tool the run no longer offers when the discovery stops", async () => {
    const file = path.join(dir, "replay-mismatch.json");
    await record(file, "run");
    const failure = await replay(file, "run", { discovery: false }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ModelCallError);
    const cause = (failure as ModelCallError).cause as ReplayMismatchError;
    expect(cause).toBeInstanceOf(ReplayMismatchError);
    expect(cause).toMatchObject({
      name: "ReplayMismatchError",
      file,
      step: 2,
      problem: "tool-not-offered",
      missingTools: ["customer_c123_getAverageSpend"],
      offered: ["searchCustomer", "findCustomers"],
    });
    expect(cause.message).toContain(
      `Replay of ${file}, step 2: the recording calls customer_c123_getAverageSpend, which this run does not offer at step 2`,
    );
    expect(cause.message).toContain(
      "(no longer offered: customer_c123_getAverageSpend, customer_c123_recentOrders)",
    );
    expect((failure as Error).message).toContain("step 2: the recording calls customer_c123_getAverageSpend");
  });

  it("fails naming the call whose result is an error now, where it succeeded when recorded", async () => {
    // A tool that throws now (or a handle this runner cannot verify, a parameter renamed): the recorded
    // answers after it would still play, and the run would end with the recorded text.
    const file = path.join(dir, "replay-result.json");
    await record(file, "run");
    expect((await readCassette(file)).steps.map((s) => s.request.failed)).toEqual([undefined, [], []]);
    const model = await ReplayLanguageModel.fromFile(file);
    const failure = await spendRunner(model)
      .withToolMiddleware((call, next) =>
        call.tool.name.endsWith("_getAverageSpend")
          ? Promise.reject(new Error("orders service down"))
          : next(),
      )
      .run(QUESTION)
      .catch((e: unknown) => e);
    const cause = (failure as Error).cause as ReplayMismatchError;
    expect(cause).toBeInstanceOf(ReplayMismatchError);
    expect(cause).toMatchObject({ problem: "result-differs", step: 3, file });
    expect(cause.message).toContain(`Replay of ${file}, step 3: customer_c123_getAverageSpend (call call_`);
    expect(cause.message).toContain("got an error, where it succeeded when recorded: ");
    expect(cause.message).toContain("orders service down");
  });

  it("names the tools offered since the recording beside those no longer offered: a tool renamed", async () => {
    const file = path.join(dir, "replay-renamed.json");
    await record(file, "run");
    const tool = (name: string) => defineTool({ name, description: "Find customers", execute: () => "?" });
    const failure = await new PromptRunner({ model: await ReplayLanguageModel.fromFile(file) })
      .withTools(tool("lookupCustomer"), tool("findCustomers")) // searchCustomer, renamed
      .run(QUESTION)
      .catch((e: unknown) => e);
    expect(((failure as Error).cause as Error).message).toContain(
      "step 1: the recording calls searchCustomer, which this run does not offer at step 1. Offered now: " +
        "lookupCustomer, findCustomers. Offered when recorded: searchCustomer, findCustomers (no longer " +
        "offered: searchCustomer; offered since: lookupCustomer).",
    );
  });

  it("goes on when told to, keeping each difference", async () => {
    const file = path.join(dir, "replay-continue.json");
    await record(file, "run");
    const model = await ReplayLanguageModel.fromFile(file, { onMismatch: "continue" });
    const recorder = new RunRecorder();
    const run = await spendRunner(model, { discovery: false, observer: recorder.observe }).run(QUESTION);
    expect(model.mismatches.map((m) => [m.step, m.problem, m.missingTools])).toEqual([
      [2, "tool-not-offered", ["customer_c123_getAverageSpend"]],
      // Its consequence: the call the run does not have got an error, where the recorded one succeeded.
      [3, "result-differs", []],
    ]);
    // The recorded call was played; this run answered it as a call to a tool it does not have.
    expect(recorder.steps[1]!.calls[0]).toMatchObject({
      toolName: "customer_c123_getAverageSpend",
      isError: true,
    });
    expect(run.result).toBe("John Smith spends 46.83 USD a month on average.");
  });

  it("always fails past the end of the recording, naming the step", async () => {
    const file = path.join(dir, "replay-short.json");
    await record(file, "run");
    const cassette = await readCassette(file);
    const model = new ReplayLanguageModel(
      { ...cassette, steps: cassette.steps.slice(0, 2) },
      { onMismatch: "continue" },
    );
    const failure = await spendRunner(model)
      .run(QUESTION)
      .catch((e: unknown) => e);
    const cause = (failure as Error).cause as ReplayMismatchError;
    expect(cause).toMatchObject({ problem: "past-end", step: 3, file: "(in memory)" });
    expect(cause.message).toMatch(
      /^Replay of \(in memory\): the run asks the model for step 3, past the end of the recording \(2 steps\)\. Offered at step 3: searchCustomer, findCustomers, customer_c123_getAverageSpend, customer_c123_recentOrders\. Last message: tool: .*\. The run no longer goes as recorded: record it again$/,
    );
  });

  it("a second run on one replay fails saying the replay was played, not that the recording is stale", async () => {
    // A replay made once for several tests: the first run played the recording whole.
    const file = path.join(dir, "replay-twice.json");
    await record(file, "run");
    const model = await ReplayLanguageModel.fromFile(file);
    expect((await spendRunner(model).run(QUESTION)).result).toBe(
      "John Smith spends 46.83 USD a month on average.",
    );
    const failure = await spendRunner(model)
      .run(QUESTION)
      .catch((e: unknown) => e);
    const cause = (failure as Error).cause as ReplayMismatchError;
    expect(cause).toMatchObject({ problem: "past-end", step: 4 });
    expect(cause.message).toContain(
      "This call begins a run (its prompt holds no answer of the model's), after the recording was played to " +
        "its end: a replay plays its recording once, so give each run a replay of its own " +
        "(ReplayLanguageModel.fromFile, or a FakePromptRunner that loaded the cassette)",
    );
    expect(cause.message).not.toContain("record it again");
  });

  it("plays a cassette inside a FakePromptRunner, with its step records and further scripted turns", async () => {
    const file = path.join(dir, "fake.json");
    await record(file, "run");
    const fake = await new FakePromptRunner().loadCassette(file);
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    const run = await runner.run(QUESTION);
    expect(run.result).toBe("John Smith spends 46.83 USD a month on average.");
    expect(fake.injectedToolNames).toEqual(["customer_c123_getAverageSpend", "customer_c123_recentOrders"]);
    expect(fake.callsAt(2)[0]!.resultText).toBe('{"amount":46.83,"currency":"USD"}');
    fake.verifyExpectations();

    const changed = await new FakePromptRunner().loadCassette(file, { onMismatch: "continue" });
    changed.respondWithText("(a turn the run never reached)");
    await changed.withTools(new CustomerSearchTools()).run(QUESTION);
    expect(() => changed.verifyExpectations()).toThrow(
      /1 scripted turn\(s\) were not played: text "\(a turn the run never reached\)"; Replay of .*fake\.json, step 2: the recording calls customer_c123_getAverageSpend/,
    );
  });
});

describe("a run paused for a person and resumed, replayed", () => {
  const resolveProvider = (_: string, id: unknown) => new CustomerSearchTools().byId(String(id));
  const approving = (model: Parameters<typeof spendRunner>[0]) =>
    spendRunner(model).withApproval((call) => call.toolName.endsWith("_getAverageSpend"));
  const approved = (run: { pendingApprovals: readonly { approvalId: string }[] }) =>
    Object.fromEntries(run.pendingApprovals.map((p) => [p.approvalId, { approved: true }]));

  it("a resume on a replay of its own (another test, another process) goes on at the recording's next step", async () => {
    const file = path.join(dir, "approval.json");
    const recording = approving(recordModel(openaiModel(), file));
    const pausedWhenRecorded = await recording.run(QUESTION);
    const recorded = await recording.resume(pausedWhenRecorded.snapshot!, {
      approvals: approved(pausedWhenRecorded),
      resolveProvider,
    });
    expect(recorded.result).toBe("John Smith spends 46.83 USD a month on average.");

    const first = await ReplayLanguageModel.fromFile(file);
    const paused = await approving(first).run(QUESTION);
    expect(paused.status).toBe("awaiting-approval");
    const later = await ReplayLanguageModel.fromFile(file);
    const resumed = await approving(later).resume(
      JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot,
      {
        approvals: approved(paused),
        resolveProvider,
      },
    );
    // It played the recording's step 3, not its step 1 again (a search at the run's step 3, and a second pause).
    expect(resumed).toMatchObject({ status: "completed", result: recorded.result, totalIterations: 3 });
    expect(later.calls).toHaveLength(1);
    expect(later.remainingSteps).toBe(0);

    // A new FakePromptRunner that loaded the same cassette finds its place by the same rule.
    const fake = await new FakePromptRunner().loadCassette(file);
    const onFake = await fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName.endsWith("_getAverageSpend"))
      .resume(JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot, {
        approvals: approved(paused),
        resolveProvider,
      });
    expect(onFake).toMatchObject({ status: "completed", result: recorded.result, totalIterations: 3 });
    expect(fake.modelCalls).toHaveLength(1);
    fake.verifyExpectations();
  });

  it("a resume whose recorded calls the cassette does not hold fails, naming it, instead of replaying from step 1", async () => {
    const [a, b] = [path.join(dir, "approval-a.json"), path.join(dir, "approval-b.json")];
    for (const file of [a, b]) {
      const recording = approving(recordModel(openaiModel(), file)); // each with ids of its own
      const paused = await recording.run(QUESTION);
      await recording.resume(paused.snapshot!, { approvals: approved(paused), resolveProvider });
    }
    const paused = await approving(await ReplayLanguageModel.fromFile(a)).run(QUESTION);
    const failure = await approving(await ReplayLanguageModel.fromFile(b))
      .resume(paused.snapshot!, { approvals: approved(paused), resolveProvider })
      .catch((e: unknown) => e);
    const cause = (failure as Error).cause as ReplayMismatchError;
    expect(cause).toBeInstanceOf(ReplayMismatchError);
    expect(cause).toMatchObject({ problem: "result-differs", step: 1, file: b });
    expect(cause.message).toContain(
      `Replay of ${b}, step 1: this run's request carries the results of customer_c123_getAverageSpend (call call_`,
    );
    expect(cause.message).toContain("where the recording's step 1 began a run");
    // What the cassette holds instead: its recorded calls, by step.
    expect(cause.message).toMatch(
      /\(it holds call_\w+ \(searchCustomer, step 1\), call_\w+ \(customer_c123_getAverageSpend, step 2\)\)/,
    );

    // A new FakePromptRunner that loaded that cassette fails the same way: it played the recording's step 1
    // again (the search, a second pause), and `verifyExpectations()` said nothing.
    const fake = await new FakePromptRunner().loadCassette(b);
    const onFake = await fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName.endsWith("_getAverageSpend"))
      .resume(paused.snapshot!, { approvals: approved(paused), resolveProvider })
      .catch((e: unknown) => e);
    const fakeCause = (onFake as Error).cause as ReplayMismatchError;
    expect(fakeCause).toBeInstanceOf(ReplayMismatchError);
    expect(fakeCause).toMatchObject({ problem: "result-differs", step: 1, file: b });
    expect(fakeCause.message).toBe(cause.message);
  });

  it("a run paused and resumed on new runners is one run of one recorder, recorded and replayed", async () => {
    // Each part on a runner of its own (a request handler makes one per request), one recorder watching
    // them all. It knows each part by the run its snapshot names (`RunStarted.continues`), so a resume that
    // decides nothing (the person has not answered yet: the run pauses again) is the run too, and so is
    // the resume after it, which decides. A conversation's next turn is a run of its own (a new prompt,
    // its steps counted from 1), after it.
    const file = path.join(dir, "approval-continued.json");
    async function parts(model: () => Promise<Parameters<typeof spendRunner>[0]>) {
      const recorder = new RunRecorder();
      const part = async () => approving(await model()).withObserver(recorder.observe);
      const asJson = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
      const paused = await (await part()).run(QUESTION);
      const undecided = await (await part()).resume(asJson(paused.snapshot), { resolveProvider });
      expect(undecided.status).toBe("awaiting-approval");
      const resumed = await (
        await part()
      ).resume(asJson(undecided.snapshot), { approvals: approved(undecided), resolveProvider });
      const next = await (await part()).run("And the month before?", { continueFrom: resumed.snapshot });
      const steps = recorder.allRuns.map((run) =>
        run.map((s) => ({ step: s.step, calls: s.calls.map((c) => c.toolName), text: s.text })),
      );
      const score = scoreToolUse(recorder.allRuns[0]!, ["searchCustomer", /_getAverageSpend$/]);
      return {
        results: [resumed.result, next.result],
        steps,
        score: score.verdicts.map((v) => [v.verdict, v.step]),
      };
    }
    const recorded = await onNewMock(() => parts(async () => recordModel(openaiModel(), file)));
    const answer = "John Smith spends 46.83 USD a month on average.";
    expect(recorded.steps).toEqual([
      [
        { step: 1, calls: ["searchCustomer"], text: "" },
        { step: 2, calls: ["customer_c123_getAverageSpend"], text: "" }, // the approved call, run at the resume
        { step: 3, calls: [], text: answer },
      ],
      [{ step: 1, calls: [], text: answer }], // the next turn
    ]);
    expect(recorded.score).toEqual([
      ["called", 1],
      ["called", 2],
    ]);
    expect((await readCassette(file)).steps).toHaveLength(4); // one recording of all four parts

    // Replayed part by part, each on a replay of its own: the same runs, the same score.
    const replayed = await parts(() => ReplayLanguageModel.fromFile(file));
    expect(replayed).toEqual(recorded);
  });

  it("a resume recorded on a recording of its own (another process) goes on in the paused run's file", async () => {
    const file = path.join(dir, "approval-two-processes.json");
    writeFileSync(file, "an older recording, replaced by the run's first call");
    const recording = approving(recordModel(openaiModel(), file));
    const paused = await recording.run(QUESTION);
    expect((await readCassette(file)).steps).toHaveLength(2);
    const resumed = await approving(recordModel(openaiModel(), file)).resume(
      JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot,
      { approvals: approved(paused), resolveProvider },
    );
    const cassette = await readCassette(file);
    expect(cassette.steps.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(cassette.steps[1]!.response).toMatchObject({
      content: [{ type: "tool-call", toolName: "customer_c123_getAverageSpend" }],
    });

    // The whole run replays from the file, in one go or paused and resumed.
    const replayed = approving(await ReplayLanguageModel.fromFile(file));
    const again = await replayed.run(QUESTION);
    const done = await replayed.resume(again.snapshot!, { approvals: approved(again), resolveProvider });
    expect(done).toMatchObject({ status: "completed", result: resumed.result, totalIterations: 3 });

    // A new run (no recorded call in its prompt) records a new file, as before.
    await onNewMock(() => approving(recordModel(openaiModel(), file)).run(QUESTION));
    expect((await readCassette(file)).steps).toHaveLength(2);
  });
});

describe("a cassette played after turns scripted before it", () => {
  it("names the run's step and the recording's step in a difference", async () => {
    const file = path.join(dir, "fake-later.json");
    await record(file, "run");
    const fake = await new FakePromptRunner().callTool("findCustomers", { text: "Smith" }).loadCassette(file);
    const failure = await fake
      .withTools(new CustomerSearchTools())
      .run(QUESTION)
      .catch((e: unknown) => e);
    const cause = (failure as Error).cause as ReplayMismatchError;
    expect(cause).toMatchObject({ problem: "tool-not-offered", step: 3 });
    expect(cause.message).toContain(
      `Replay of ${file}, step 3 (the recording's step 2): the recording calls customer_c123_getAverageSpend, ` +
        "which this run does not offer at step 3",
    );
  });
});

describe("deferred delivery, recorded and replayed", () => {
  it("counts the tools a client tool search delivered as offered, and replays in the same form", async () => {
    const file = path.join(dir, "deferred.json");
    const recorded = await record(file, "run", "deferred");
    const cassette = await readCassette(file);
    // The tool list stays the same; the customer's tools were delivered in the prompt.
    expect(cassette.steps[1]!.request.tools).toEqual([
      "searchCustomer",
      "findCustomers",
      "tool_search",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    const model = await ReplayLanguageModel.fromFile(file);
    const recorder = new RunRecorder();
    const run = await spendRunner(model, { delivery: "deferred", observer: recorder.observe }).run(QUESTION);
    expect({ result: run.result, steps: seen(recorder) }).toEqual(recorded);
    // The replay is the Responses model again, so the tools went by tool search, not in the tool list.
    expect(model.calls[1]!.tools!.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "tool_search",
    ]);
  });
});

// An application that names its model by id (`new PromptRunner({ model: "fast" })`) records and replays
// behind the process's default provider: the id resolves to the recording model, then to the replay.
describe("a model given by id, recorded and replayed", () => {
  const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
  const saved = global.AI_SDK_DEFAULT_PROVIDER;
  afterAll(() => void (global.AI_SDK_DEFAULT_PROVIDER = saved));

  it("records what the id resolves to and replays in that model's form", async () => {
    const file = path.join(dir, "by-id.json");
    global.AI_SDK_DEFAULT_PROVIDER = customProvider({
      languageModels: { fast: recordModel(openaiModel(), file) as ReturnType<typeof openaiModel> },
    });
    const recorder = new RunRecorder();
    const run = await spendRunner("fast", { delivery: "deferred", observer: recorder.observe }).run(QUESTION);
    const recorded = { result: run.result, steps: seen(recorder) };
    expect(recorded.result).toBe("John Smith spends 46.83 USD a month on average.");
    const cassette = await readCassette(file);
    expect(cassette.model).toEqual({
      provider: "openai.responses",
      modelId: "gpt-test",
      specificationVersion: openaiModel().specificationVersion, // v3 on ai 6, v4 on ai 7
    });
    expect(cassette.steps).toHaveLength(3);

    const model = await ReplayLanguageModel.fromFile(file);
    global.AI_SDK_DEFAULT_PROVIDER = customProvider({ languageModels: { fast: model } });
    const again = new RunRecorder();
    const replayed = await spendRunner("fast", { delivery: "deferred", observer: again.observe }).run(
      QUESTION,
    );
    expect({ result: replayed.result, steps: seen(again) }).toEqual(recorded);
    // Replayed as the recorded Responses model: the customer's tools went by tool search again.
    expect(model.calls[1]!.tools!.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "tool_search",
    ]);
  });

  it("records the model an id names when given the id itself", async () => {
    const file = path.join(dir, "id-itself.json");
    global.AI_SDK_DEFAULT_PROVIDER = customProvider({ languageModels: { fast: openaiModel() } });
    const run = await spendRunner(recordModel("fast", file)).run(QUESTION);
    const cassette = await readCassette(file);
    expect(cassette.model).toMatchObject({ provider: "openai.responses", modelId: "gpt-test" });
    expect(cassette.steps.map((s) => s.response.kind)).toEqual(["generate", "generate", "generate"]);
    const replayed = await spendRunner(await ReplayLanguageModel.fromFile(file)).run(QUESTION);
    expect(replayed.result).toBe(run.result);
  });
});

describe("a cassette that cannot be replayed", () => {
  const good = path.join(dir, "good.json");
  beforeAll(() => record(good, "run"));

  async function refusal(edit: (cassette: Record<string, unknown>) => unknown, name: string) {
    const cassette = JSON.parse(readFileSync(good, "utf8")) as Record<string, unknown>;
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(edit(cassette)));
    return ReplayLanguageModel.fromFile(file).catch((e: unknown) => e as CassetteError);
  }

  it("of another format version: names the file and the version", async () => {
    const error = await refusal((c) => ({ ...c, version: 2 }), "v2.json");
    expect(error).toBeInstanceOf(CassetteError);
    expect(error).toMatchObject({ name: "CassetteError", file: path.join(dir, "v2.json") });
    expect((error as Error).message).toContain(
      `The cassette ${path.join(dir, "v2.json")} cannot be replayed`,
    );
    expect((error as Error).message).toContain(
      'field "version" is 2: this entity-tools replays format version 1',
    );
  });

  it("edited by hand: a missing field and a wrong type, each named by its path inside the file", async () => {
    const error = await refusal((c) => {
      const steps = c.steps as { response: Record<string, unknown>; request?: unknown }[];
      delete steps[1]!.request;
      (steps[2]!.response.content as { toolName?: unknown; type: string }[])[0]!.type = "tool-call";
      return c;
    }, "edited.json");
    expect((error as CassetteError).problems).toEqual([
      'missing required field "steps.1.request"',
      expect.stringMatching(/^missing required field "steps\.2\.response\.content\.0\.toolCallId"$/),
      expect.stringMatching(/steps\.2\.response\.content\.0\.toolName/),
      expect.stringMatching(/steps\.2\.response\.content\.0\.input/),
    ]);
    const retyped = await refusal((c) => {
      (c.steps as { step: unknown }[])[0]!.step = "one";
      return c;
    }, "retyped.json");
    expect((retyped as Error).message).toContain('field "steps.0.step" must be integer');
    // A part type misspelled (the provider's own spelling, `tool_call`): the call would vanish from the replay.
    const misspelled = await refusal((c) => {
      const steps = c.steps as { response: { content: { type: string }[] } }[];
      steps[1]!.response.content[0]!.type = "tool_call";
      steps[2]!.response.content[0]!.type = "Text";
      return c;
    }, "misspelled.json");
    expect((misspelled as CassetteError).problems).toEqual([
      'field "steps.1.response.content.0.type" is "tool_call": did you mean "tool-call"?',
      'field "steps.2.response.content.0.type" is "Text": did you mean "text"?',
    ]);
  });

  it("not JSON, not a cassette, or not there", async () => {
    const broken = path.join(dir, "broken.json");
    writeFileSync(broken, '{"format": "entity-tools/cassette", ');
    await expect(readCassette(broken)).rejects.toThrow(
      /^The cassette .*broken\.json cannot be replayed: it is not JSON/,
    );
    const other = await refusal(() => ({ hello: 1 }), "other.json");
    expect((other as Error).message).toContain(
      'it is not a cassette (field "format" must be "entity-tools/cassette")',
    );
    await expect(readCassette(path.join(dir, "missing.json"))).rejects.toThrow(
      /missing\.json cannot be replayed: it cannot be read/,
    );
  });
});
