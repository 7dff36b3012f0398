// The run log as a user reads it back: what a discovery run with pricing, a picture and an approval
// writes (checked against the shipped JSON Schema), what the viewer makes of it (each step's change and
// its cause), what `recordContent: false` leaves out, who may read the files, and the folder checked
// before any run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defineTool,
  readRunLog,
  RunLogError,
  runView,
  type CallRecord,
  type CostsRecord,
  type RunLogRecord,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
} from "entity-tools";
import { FakePromptRunner, scoreToolUse } from "entity-tools/testing";
import { groupConversations, summarizeRun, type RunSummary } from "../../src/run-log/run-log-index.js";
import { RunLogFile } from "../../src/run-log/run-log-file.js";
import { TOOL_SET_CHECKPOINT } from "../../src/run-log/run-log-format.js";
import { loggedPrompt } from "../../src/run-log/run-log-prompt.js";
import {
  budgetRun,
  customerRunner,
  discoveryConversation,
  handlesRun,
  issued,
  spendChartPng,
} from "../support/run-log-runs.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "run-log-"));
  dirs.push(dir);
  return dir;
}

/** The run files of a folder, oldest first, each read back. */
function runs(dir: string) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(dir, file), "utf8");
      return {
        file,
        text,
        read: readRunLog(text),
        lines: text
          .trimEnd()
          .split("\n")
          .map((l) => JSON.parse(l) as RunLogRecord),
      };
    });
}

describe("a discovery conversation with pricing, a picture and an approval", () => {
  const dir = path.join(tmpdir(), `run-log-${process.pid}-conversation`, "runs"); // created by withRunLog
  let files: ReturnType<typeof runs>;
  let conversation: Awaited<ReturnType<typeof discoveryConversation>>;
  let umask: number;
  beforeAll(async () => {
    dirs.push(path.dirname(dir));
    umask = process.umask(0o022); // the usual umask: what the log writes must still be its owner's only
    try {
      issued.length = 0;
      conversation = await discoveryConversation(dir);
    } finally {
      process.umask(umask);
    }
    files = runs(dir);
  });

  it("writes one file per run, resume and turn, each line a record of the shipped JSON Schema", () => {
    expect(files.map((f) => f.read.header?.kind)).toEqual(["run", "resume", "continue"]);
    const schema = JSON.parse(readFileSync("docs/run-log.schema.json", "utf8")) as object;
    const validate = addFormats.default(new Ajv({ strict: false })).compile(schema);
    for (const { file, lines } of files)
      for (const [i, line] of lines.entries())
        expect(validate(line), `${file}:${i + 1} ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(files.every((f) => f.read.problems.length === 0)).toBe(true);
    expect(issued).toEqual(["c123 10"]);
  });

  it("shows step 2's new tools with the call that found them and the provider, and that the cache broke there", () => {
    const view = runView(files[0]!.read);
    const search = view.steps[0]!.calls[0]!;
    expect(search.tool).toBe("searchCustomer");
    const step2 = view.steps.find((s) => s.step === 2)!;
    expect(step2.added).toEqual([
      {
        tool: "customer_c123_getAverageSpend",
        cause: {
          provider: { providerClass: "Customer", id: "c123", idType: "string" },
          by: search.id,
          byStep: 1,
          byTool: "searchCustomer",
        },
      },
      expect.objectContaining({ tool: "customer_c123_recentOrders" }),
    ]);
    expect(view.toolsAt(2)).toEqual([
      "searchCustomer",
      "findCustomers",
      "issueStoreCredit",
      "spendChart",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(view.steps.find((s) => s.step === 3)!.cacheShare).toBeCloseTo(1500 / 1900);
    expect(view.steps.find((s) => s.step === 3)!.added).toEqual([]);
  });

  it("records the approval asked and decided, the picture as a file beside the log, and the cost", () => {
    const [paused, resumed] = files;
    const asked = paused!.read.records.find((r) => r.type === "approval-asked");
    expect(asked).toMatchObject({ tool: "issueStoreCredit", input: { customerId: "c123", amount: 10 } });
    expect(resumed!.read.records.find((r) => r.type === "approval-decided")).toMatchObject({
      id: (asked as { id: string }).id,
      approved: true,
    });
    const chart = paused!.read.records.find((r) => r.type === "call" && r.tool === "spendChart");
    const media = (chart as CallRecord).media!;
    expect(media).toEqual([
      { type: "image", mediaType: "image/png", file: expect.stringMatching(/\.media\/1\.png$/) },
    ]);
    expect(readFileSync(path.join(dir, media[0]!.file!))).toEqual(spendChartPng());
    const end = paused!.read.records.find((r) => r.type === "end") as Extract<RunLogRecord, { type: "end" }>;
    expect(end.status).toBe("awaiting-approval");
    expect(end.cost).toBeGreaterThan(0);
    const costs = paused!.read.records.find((r) => r.type === "costs") as CostsRecord;
    expect(costs.perProvider).toEqual([
      expect.objectContaining({ providerClass: "Customer", instanceId: "c123" }),
    ]);
    const response = paused!.read.records.find((r) => r.type === "response") as { cost: number };
    expect(response.cost).toBeCloseTo((1200 * 0.25 + 30 * 2) / 1e6);
  });

  it("a resumed file's end has its own cost, its costs record the whole run's providers, the re-bound one too", () => {
    const end = (f: (typeof files)[number]) =>
      f.read.records.find((r) => r.type === "end") as Extract<RunLogRecord, { type: "end" }>;
    const own = (f: (typeof files)[number]) =>
      f.read.records.reduce((sum, r) => sum + (r.type === "response" ? r.cost! : 0), 0);
    for (const file of files) expect(end(file).cost).toBeCloseTo(own(file), 15);
    // The result's cost is the whole run's: each file's own, added up.
    const [paused, resumed, next] = files.map((f) => end(f).cost!);
    expect(conversation.resumed.cost!.total).toBeCloseTo(paused! + resumed!, 15);
    expect(conversation.next.cost!.total).toBeCloseTo(paused! + resumed! + next!, 15);
    const customer = (f: (typeof files)[number]) =>
      (f.read.records.find((r) => r.type === "costs") as CostsRecord).perProvider;
    const [before, after, turn2] = files.map(customer);
    expect(after).toEqual([
      expect.objectContaining({ identity: { providerClass: "Customer", id: "c123", idType: "string" } }),
    ]);
    expect(after![0]!.cost).toBeGreaterThan(before![0]!.cost); // offered at the resume's step too
    expect(turn2).toEqual(conversation.next.cost!.perProvider);
    expect(turn2![0]!.calls).toBe(after![0]!.calls + 1); // turn 2 called it again
  });

  it("links the resume and the next turn to the run they go on from, by the id their snapshot names", () => {
    const [paused, resumed, next] = files.map((f) => f.read);
    expect(paused!.header?.continues).toBeUndefined();
    expect(resumed!.header?.continues).toBe(paused!.header!.id);
    expect(next!.header?.continues).toBe(resumed!.header!.id);
    // One identity: each part's snapshot names its file. The fake's recorder keeps the resume the paused
    // run's (one run of steps 1 to 4), and the next turn, a new prompt, a run of its own.
    expect([conversation.paused, conversation.resumed].map((r) => r.snapshot.log)).toEqual([
      paused!.header!.id,
      resumed!.header!.id,
    ]);
    expect(conversation.runs).toEqual([
      [1, 2, 3, 4],
      [1, 2],
    ]);
    const summaries = files.map((f) => summarizeRun(f.file, f.read));
    expect(groupConversations(summaries).map((g) => g.runs.map((r) => [r.run.file, r.turn]))).toEqual([
      [
        [files[0]!.file, 1],
        [files[1]!.file, 1],
        [files[2]!.file, 2],
      ],
    ]);
    // Each file's own model calls (the paused part's 3, the resume's 1, the next turn's 2), beside its own
    // tokens and cost; `totalIterations` counts what each goes on from too.
    expect(summaries.map((s) => [s.steps, s.totalIterations])).toEqual([
      [3, 3],
      [1, 4],
      [2, 6],
    ]);
  });

  it("links a turn continued from a snapshot a store gave back with its keys in another order", async () => {
    const dir = scratch();
    const fake = new FakePromptRunner();
    const runner = fake.withRunLog(dir);
    fake.respondWith("first", () => ({ text: "one" })).respondWith("second", () => ({ text: "two" }));
    const first = await runner.run("first");
    expect(first.snapshot.log).toBe(readdirSync(dir)[0]!.replace(/\.jsonl$/, ""));
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : value && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .sort(([a], [b]) => b.localeCompare(a))
                .map(([k, v]) => [k, sorted(v)]),
            )
          : value;
    await runner.run("second", { continueFrom: sorted(first.snapshot) as typeof first.snapshot });
    const reads = readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => ({ f, read: readRunLog(readFileSync(path.join(dir, f), "utf8")) }));
    expect(reads[1]!.read.header?.continues).toBe(reads[0]!.read.header!.id);
    const groups = groupConversations(reads.map((r) => summarizeRun(r.f, r.read)));
    expect(groups.map((g) => g.runs.map((r) => r.turn))).toEqual([[1, 2]]);
  });

  it("names the caller's conversation in each turn's header: given, or carried from the snapshot; the list names it", async () => {
    const dir = scratch();
    const fake = new FakePromptRunner()
      .respondWithText("one")
      .respondWithText("two")
      .respondWithText("three");
    const runner = fake.withRunLog(dir);
    const first = await runner.run("first", { conversationId: "chat-42" });
    const second = await runner.run("second", { continueFrom: first.snapshot }); // not given: the snapshot's
    await runner.run("other"); // another conversation, with no id
    const reads = readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => ({ f, read: readRunLog(readFileSync(path.join(dir, f), "utf8")) }));
    expect(reads.map((r) => r.read.header?.conversationId)).toEqual(["chat-42", "chat-42", undefined]);
    expect(second.snapshot.conversationId).toBe("chat-42");
    const groups = groupConversations(reads.map((r) => summarizeRun(r.f, r.read)));
    expect(groups.map((g) => [g.conversationId, g.runs.length])).toEqual([
      [undefined, 1],
      ["chat-42", 2],
    ]);
  });

  it("lists runs begun in one millisecond in the order their files were named, given in any order", () => {
    const at = "2026-11-28T10:00:00.000Z";
    const run = (file: string, id: string, continues?: string): RunSummary => ({
      file,
      id,
      startedAt: at,
      status: "completed",
      kind: continues ? "continue" : "run",
      ...(continues ? { continues } : {}),
    });
    const first = run("a-1.jsonl", "a-1");
    const second = run("a-2.jsonl", "a-2", "a-1");
    const other = run("a-3.jsonl", "a-3");
    for (const given of [
      [other, second, first],
      [second, first, other],
    ])
      expect(groupConversations(given).map((g) => g.runs.map((r) => [r.run.id, r.turn]))).toEqual([
        [["a-3", 1]],
        [
          ["a-1", 1],
          ["a-2", 2],
        ],
      ]);
  });

  it("groups by the conversation id a header names, else by `continues`: a gap in the chain, a seed two conversations share, turns written before the id", () => {
    let minute = 0;
    const run = (id: string, more: Partial<RunSummary> = {}): RunSummary => ({
      file: `${id}.jsonl`,
      id,
      startedAt: `2026-11-28T10:${String(minute++).padStart(2, "0")}:00.000Z`,
      status: "completed",
      kind: more.continues ? "continue" : "run",
      ...more,
    });
    const given = [
      run("ann-1", { conversationId: "ann" }),
      run("ann-3", { conversationId: "ann", continues: "ann-2" }), // ann-2 was logged elsewhere
      run("seed"),
      run("bob-1", { conversationId: "bob", continues: "seed" }),
      run("carol-1", { conversationId: "carol", continues: "seed" }),
      run("old-1"), // written before the id: the first turn named is the rest of its conversation
      run("old-2", { continues: "old-1" }),
      run("dave-3", { conversationId: "dave", continues: "old-2" }),
      run("dave-3b", { kind: "resume", continues: "dave-3" }), // an older writer that did not carry the id
    ];
    expect(
      groupConversations(given).map((g) => [g.conversationId, ...g.runs.map((r) => [r.run.id, r.turn])]),
    ).toEqual([
      ["dave", ["old-1", 1], ["old-2", 2], ["dave-3", 3], ["dave-3b", 3]],
      ["carol", ["carol-1", 1]],
      ["bob", ["bob-1", 1]],
      [undefined, ["seed", 1]],
      ["ann", ["ann-1", 1], ["ann-3", 2]],
    ]);
  });

  it("keeps the folder, the files and the media readable by their owner only", () => {
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(dir)).toBe(0o700);
    for (const { file } of files) expect(mode(path.join(dir, file))).toBe(0o600);
    const mediaDir = readdirSync(dir).find((f) => f.endsWith(".media"))!;
    expect(mode(path.join(dir, mediaDir))).toBe(0o700);
    expect(mode(path.join(dir, mediaDir, "1.png"))).toBe(0o600);
  });
});

it("recordContent: false writes names, counts, tokens and cost, and no word of the conversation", async () => {
  const dir = scratch();
  await discoveryConversation(dir, { recordContent: false });
  const texts = runs(dir)
    .map((f) => f.text)
    .join("\n");
  for (const secret of ["John Smith", "46.83", "store credit", "customerId"])
    expect(texts).not.toContain(secret);
  for (const kept of ["searchCustomer", "customer_c123_getAverageSpend", '"inputTokens":1200', '"cost"'])
    expect(texts).toContain(kept);
  expect(readdirSync(dir).some((f) => f.endsWith(".media"))).toBe(false);
});

it("writes the prompt's pictures and files as media files beside the log, and keeps a URL a URL", async () => {
  const dir = scratch();
  const png = spendChartPng();
  const pdf = Buffer.from("%PDF-1.4 a receipt");
  const fake = new FakePromptRunner().respondWithText("seen");
  await fake.withRunLog(dir).run([
    {
      role: "user",
      content: [
        { type: "text", text: "What do these show?" },
        { type: "image", image: new Uint8Array(png) }, // no media type: found by its bytes, as the SDK does
        { type: "file", data: pdf.toString("base64"), mediaType: "application/pdf", filename: "r.pdf" },
        { type: "image", image: `data:image/png;base64,${png.toString("base64")}` },
      ],
    },
  ]);
  const [run] = runs(dir);
  expect(run!.text.length).toBeLessThan(1500); // no bytes inline (the picture alone is larger)
  const parts = (run!.read.header!.prompt as { content: unknown[] }[])[0]!.content;
  expect(parts).toEqual([
    { type: "text", text: "What do these show?" },
    { type: "image", mediaType: "image/png", file: expect.stringMatching(/\.media\/1\.png$/) },
    {
      type: "file",
      mediaType: "application/pdf",
      filename: "r.pdf",
      file: expect.stringMatching(/\.media\/2\.pdf$/),
    },
    { type: "image", mediaType: "image/png", file: expect.stringMatching(/\.media\/3\.png$/) },
  ]);
  const fileOf = (i: number) => readFileSync(path.join(dir, (parts[i] as { file: string }).file));
  expect(fileOf(1)).toEqual(png);
  expect(fileOf(2)).toEqual(pdf);
  expect(fileOf(3)).toEqual(png);
  // By URL (a model that fetches it itself; the scripted one would have the SDK download it): kept as one.
  const file = new RunLogFile({ dir, id: "by-url", limitBytes: 1e6, onFailure: () => {}, keepOpen: false });
  const url = "https://example.com/chart.png";
  const byUrl = [
    { type: "image", image: new URL(url) },
    { type: "file", data: url, mediaType: "text/csv" },
    { type: "file", data: "data:text/plain,100%%,%E0%A4%A", mediaType: "text/plain" }, // malformed escapes
  ];
  expect(loggedPrompt([{ role: "user", content: byUrl }], file)).toEqual([
    {
      role: "user",
      content: [
        { type: "image", mediaType: "image/*", url },
        { type: "file", mediaType: "text/csv", url },
        { type: "file", mediaType: "text/plain", file: "by-url.media/1.txt" },
      ],
    },
  ]);
  expect(readFileSync(path.join(dir, "by-url.media/1.txt"), "utf8")).toBe("100%%,%E0%A4%A");
});

it("a folder that cannot be written is a RunLogError at withRunLog, before any run", () => {
  const file = path.join(scratch(), "not-a-folder");
  writeFileSync(file, "x");
  const { fake } = customerRunner(scratch());
  expect(() => fake.withRunLog(path.join(file, "runs"))).toThrow(RunLogError);
  expect(() => fake.withRunLog(file)).toThrow(/Cannot write run logs into .*not-a-folder/);
  expect(() => fake.withRunLog("")).toThrow(
    /^Cannot write run logs into "": no folder was given\. Give withRunLog \(or createMcpServer's runLog\) a folder/,
  );
});

// procfs answers ENOENT to a mkdir whose parent exists; Node's own recursive mkdir then walks back and
// forth forever, at 100 % CPU (a hang the test could not end in-process, hence the child and its timeout).
it.runIf(process.platform === "linux")(
  "a folder its parent cannot hold (procfs) is a RunLogError, not a hang",
  () => {
    const script = `import { FakePromptRunner } from "entity-tools/testing";
    try { new FakePromptRunner().withRunLog("/proc/entity-tools-runs/runs"); } catch (e) { console.log(e.name); }`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      timeout: 60_000,
      encoding: "utf8",
    });
    expect(out.trim()).toBe("RunLogError");
  },
);

it("past maxFileBytes the file ends with a note and the run's end; the run goes on", async () => {
  const dir = scratch();
  const run = await discoveryConversation(dir, { maxFileBytes: 1500 });
  expect(run.next.status).toBe("completed");
  const first = runs(dir)[0]!;
  const types = first.read.records.map((r) => r.type);
  expect(types.slice(-2)).toEqual(["cut", "end"]);
  expect(first.read.records.find((r) => r.type === "call" && r.tool === "spendChart")).toBeUndefined();
});

describe("a disk that fills during the run", () => {
  // A 16 KB tmpfs is a disk that fills for real; mounting one needs root (CI containers run as root).
  const mountPoint = scratch();
  let mounted = false;
  beforeAll(() => {
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=16k,mode=0700", "tmpfs", mountPoint], {
        stdio: "ignore",
      });
      mounted = true;
    } catch {
      console.warn("run-log disk-full test skipped: cannot mount a tmpfs here (needs root)");
    }
  });
  afterAll(() => {
    if (mounted) execFileSync("umount", [mountPoint]);
  });

  it("is one RunLogWarning event, and the run goes on to its answer", async (context) => {
    if (!mounted) return context.skip();
    const warnings: ToolLoopEvent[] = [];
    const big = defineTool({
      name: "bigReport",
      description: "A long report",
      execute: () => "x".repeat(12_000),
    });
    const fake = new FakePromptRunner();
    const runner = fake
      .withTools(big)
      .withRunLog(mountPoint)
      .withObserver((e) => void (e.type === "RunLogWarning" && warnings.push(e)));
    fake.callTool("bigReport").callTool("bigReport").callTool("bigReport").respondWithText("done");
    const run = await runner.run("Report");
    expect(run.status).toBe("completed");
    expect(warnings).toEqual([
      expect.objectContaining({
        file: expect.stringContaining(mountPoint),
        message: expect.stringMatching(/ENOSPC/),
      }),
    ]);
    const file = readdirSync(mountPoint).find((f) => f.endsWith(".jsonl"))!;
    expect(readRunLog(readFileSync(path.join(mountPoint, file), "utf8")).header?.kind).toBe("run");
  });
});

it("a tool pushed out by the budget leaves with the reason and the call that pushed it", async () => {
  const dir = scratch();
  await budgetRun(dir);
  const view = runView(runs(dir)[0]!.read);
  const janeSearch = view.steps[1]!.calls[0]!;
  expect(janeSearch.input).toEqual({ name: "Jane Smith" });
  expect(view.steps.find((s) => s.step === 3)!.removed).toEqual([
    {
      tool: "customer_c123_getAverageSpend",
      cause: { reason: "budget", by: janeSearch.id, byStep: 2, byTool: "searchCustomer" },
    },
    expect.objectContaining({
      tool: "customer_c123_recentOrders",
      cause: expect.objectContaining({ reason: "budget" }),
    }),
  ]);
});

it("in handles mode each discovered provider's handle is logged, and a call names the provider its handle names", async () => {
  const dir = scratch();
  await handlesRun(dir);
  const records = runs(dir)[0]!.read.records;
  const found = records.filter((r) => r.type === "discovered");
  expect(found.map((r) => [r.provider.id, r.handle?.startsWith("Customer:")])).toEqual([
    ["c123", true],
    ["c456", true],
  ]);
  expect(records.find((r) => r.type === "call" && r.tool === "customer_getAverageSpend")).toMatchObject({
    provider: { providerClass: "Customer", id: "c123", idType: "string" },
  });
});

it("a restart is logged, and the tools the earlier attempt added leave with the reason restart", async () => {
  const dir = scratch();
  let restarted = false;
  const restartOnce: ToolInjectionStrategy = {
    evaluateToolResult: ({ lastToolCall }) => {
      if (lastToolCall.toolName !== "findCustomers" || restarted) return {};
      restarted = true;
      return { restart: { reason: "a fresh start" } };
    },
  };
  const { fake, runner } = customerRunner(dir);
  fake
    .callTool("searchCustomer", { name: "John Smith" })
    .callTool("findCustomers", { text: "Smith" })
    .respondWithText("done");
  await runner.withInjectionStrategy(restartOnce).run("Find John");
  const view = runView(runs(dir)[0]!.read);
  expect(view.steps[1]!.other).toContainEqual({
    type: "restart",
    step: 2,
    cause: "strategy",
    reason: "a fresh start",
  });
  expect(view.steps[2]!.removed).toEqual([
    { tool: "customer_c123_getAverageSpend", cause: { reason: "restart" } },
    { tool: "customer_c123_recentOrders", cause: { reason: "restart" } },
  ]);
});

it("scoreToolUse reads a run log: each step's tools and the entity of each call, per-instance and handles", async () => {
  const dir = scratch();
  await discoveryConversation(dir);
  await handlesRun(dir);
  const files = runs(dir);
  const [paused, , , handles] = files.map((f) => runView(f.read));
  const onC123 = { tool: /getAverageSpend$/, provider: { providerClass: "Customer", id: "c123" } };
  const expected = ["searchCustomer", onC123, "customer_c456_getAverageSpend"];
  const score = scoreToolUse(paused!, expected);
  expect(score.verdicts.map((v) => [v.verdict, v.step])).toEqual([
    ["called", 1],
    ["called", 2],
    ["not-offered", 2],
  ]);
  expect(scoreToolUse(handles!, ["findCustomers", onC123]).score).toBe(1);
  // What readRunLog returns is scored as it is: it threw a bare TypeError.
  expect(scoreToolUse(files[0]!.read, expected)).toEqual(score);
  expect(scoreToolUse.many([files[0]!.read, paused!], expected).runs).toBe(2);
});

it("recordContent: false logs a strategy's restart by its cause, without the reason its author wrote", async () => {
  const dir = scratch();
  let restarted = false;
  const restartOnce: ToolInjectionStrategy = {
    evaluateToolResult: () =>
      restarted ? {} : ((restarted = true), { restart: { reason: "John Smith is a VIP" } }),
  };
  const { fake, runner } = customerRunner(dir, { recordContent: false });
  fake.callTool("searchCustomer", { name: "John Smith" }).respondWithText("done");
  await runner.withInjectionStrategy(restartOnce).run("Find John");
  const [run] = runs(dir);
  expect(run!.read.records.find((r) => r.type === "restart")).toMatchObject({
    cause: "strategy",
    reason: "restart",
  });
  expect(run!.text).not.toContain("VIP");
});

it("writes a step's whole tool list every TOOL_SET_CHECKPOINT steps, whether the list changed or not", async () => {
  const stepRecords = async (lastCall: "changes nothing" | "finds a customer") => {
    const dir = scratch();
    const { fake, runner } = customerRunner(dir);
    for (let step = 1; step < TOOL_SET_CHECKPOINT; step++) fake.callTool("findCustomers", { text: "Nobody" });
    if (lastCall === "finds a customer") fake.callTool("searchCustomer", { name: "John Smith" });
    else fake.callTool("findCustomers", { text: "Nobody" });
    fake.respondWithText("done");
    await runner.withMaxToolIterations(TOOL_SET_CHECKPOINT + 1).run("q");
    return runs(dir)[0]!.read.records.filter((r) => r.type === "step");
  };
  const base = ["searchCustomer", "findCustomers", "issueStoreCredit", "spendChart"];
  const found = [...base, "customer_c123_getAverageSpend", "customer_c123_recentOrders"];
  for (const [lastCall, tools] of [
    ["changes nothing", base],
    ["finds a customer", found],
  ] as const) {
    const steps = await stepRecords(lastCall);
    expect(steps[TOOL_SET_CHECKPOINT - 1]!.tools, `step ${TOOL_SET_CHECKPOINT}`).toBeUndefined();
    expect(steps[TOOL_SET_CHECKPOINT]!.tools, `step ${TOOL_SET_CHECKPOINT + 1}, ${lastCall}`).toEqual(tools);
  }
});
