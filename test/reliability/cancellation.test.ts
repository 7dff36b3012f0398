// Cancelling a run every way a user does (docs/reliability.md, X01–X14), each in a process of its own
// (support/cancellation-child.ts) that must exit by itself: a run that leaves a model request, a timer or
// a socket behind keeps it up, and the test times out. The model is `@ai-sdk/openai` over HTTP; what the
// caller got, the requests the client cancelled, the run log's last record, the spans left open, events
// after the run's end and unhandled rejections are the child's report.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";

// On the ai 7 lane the child resolves `ai` and the providers from the lane.
const lane = process.env.ENTITY_TOOLS_LANE === "ai7" ? ["--import", "./bench/lanes/ai7.mjs"] : [];
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill("SIGKILL"); // only a child that did not exit (the test failed)
  children.clear();
});

interface Report {
  readonly caller?: { name: string; message: string; lastToolResult?: unknown };
  readonly parts?: { types: string[]; threw?: { name: string; message: string } };
  readonly requests: number;
  readonly cancelled: number[];
  readonly log: unknown[];
  readonly openSpans: number;
  readonly lateEvents: string[];
  readonly unhandled: string[];
  readonly [other: string]: unknown;
}

/** Runs the scenario in a child process and waits for it to exit by itself; its report. */
async function cancelled(scenario: string): Promise<Report> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", ...lane, "test/reliability/support/cancellation-child.ts", scenario],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  children.delete(child);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as Report;
}

const aborted = (message: string) => ({
  name: "ToolLoopAbortedError",
  message: `The run was aborted: ${message}`,
});

/** A run that ended cancelled: the caller's error, the log's end record, no span left open, nothing after. */
function expectStopped(report: Report, message: string): void {
  expect(report.caller).toMatchObject(aborted(message));
  expect(report.log.at(-1)).toEqual({ type: "end", status: "failed", error: aborted(message) });
  expect(report.openSpans).toBe(0);
  expect(report.lateEvents).toEqual([]);
  expect(report.unhandled).toEqual([]);
}

const USER = "the user pressed stop";
const READER_STOPPED = "the reader of stream.parts stopped before the end";
const UI_CANCELLED = "the UI message stream was cancelled";
const CANCELLED_CALL = { type: "error-text", value: "The run was cancelled before this tool finished" };

describe("cancelling a run: each in a child process that exits by itself", () => {
  it("X01 abort while the text streams: parts and result end with the same error; the model request is cancelled", async () => {
    const report = await cancelled("abort while text streams");
    expectStopped(report, USER);
    expect(report.parts).toEqual({ types: ["text-delta", "text-delta"], threw: aborted(USER) });
    expect(report.cancelled).toEqual([1]);
  });

  it("X02 abort while run() waits for the model: the request is cancelled", async () => {
    const report = await cancelled("abort while run() waits for the model");
    expectStopped(report, USER);
    expect(report.cancelled).toEqual([1]);
  });

  it("X03 abort during a tool call that honours its signal: the call's result says it was cancelled", async () => {
    const report = await cancelled("abort during a tool call that honours its signal");
    expectStopped(report, USER);
    expect(report.caller!.lastToolResult).toEqual(CANCELLED_CALL);
  });

  it("X04 a tool that ignores its signal: the run ends at the abort; the late result is dropped (no event after the end)", async () => {
    const report = await cancelled(
      "abort during a tool call that ignores its signal and resolves after the run ended",
    );
    expectStopped(report, USER);
    expect(report.caller!.lastToolResult).toEqual(CANCELLED_CALL);
  });

  it("X05 abort while the approval predicate decides: the run does not wait for it", async () => {
    const report = await cancelled("abort while the approval predicate decides");
    expectStopped(report, USER);
    expect(report.requests).toBe(1);
  });

  it("X06 a paused run resumed, aborted in its approved call: the resume's log file ends failed, the pause's paused", async () => {
    const report = await cancelled("abort a resumed run's approved call");
    expectStopped(report, USER);
    expect(report.paused).toBe("awaiting-approval");
    expect(report.log).toEqual([
      { type: "end", status: "awaiting-approval" },
      { type: "end", status: "failed", error: aborted(USER) },
    ]);
    expect(report.parts).toEqual({ types: ["tool-result"], threw: aborted(USER) });
  });

  it("X07 abort during the restart a read_section asks for: no new attempt calls the model", async () => {
    const report = await cancelled("abort during the restart read_section asks for");
    expectStopped(report, USER);
    expect(report.requests).toBe(1);
  });

  it("X08 a signal aborted before the run starts: no model request", async () => {
    const report = await cancelled("a signal aborted before the run starts");
    expectStopped(report, USER);
    expect(report.requests).toBe(0);
  });

  it("X09 the reader breaks out of for await over parts: the run is cancelled, the model request too", async () => {
    const report = await cancelled("the reader breaks out of for await");
    expectStopped(report, READER_STOPPED);
    expect(report.parts).toEqual({ types: ["text-delta"] });
    expect(report.cancelled).toEqual([1]);
  });

  it("X10 the reader throws: it gets its own error; the run is cancelled, the model request too", async () => {
    const report = await cancelled("the reader throws");
    expectStopped(report, READER_STOPPED);
    expect(report.parts).toEqual({
      types: ["text-delta"],
      threw: { name: "Error", message: "the reader's own bug" },
    });
    expect(report.cancelled).toEqual([1]);
  });

  it("X11 a UI message stream Response whose body is cancelled (a route handler's client left): the run is cancelled", async () => {
    const report = await cancelled("the UI stream response's body is cancelled");
    expectStopped(report, UI_CANCELLED);
    expect(report.cancelled).toEqual([1]);
  });

  it("X12 pipeUIMessageStreamToResponse: the client disconnects; the run is cancelled", async () => {
    const report = await cancelled("the client of pipeUIMessageStreamToResponse leaves");
    expectStopped(report, UI_CANCELLED);
    expect(report.cancelled).toEqual([1]);
  });

  it("X13 examples/web-chat: the page leaves mid-answer; the model request is cancelled and the next turn goes on", async () => {
    const report = await cancelled("examples/web-chat: the page leaves while the answer streams");
    expect(report.cancelled).toEqual([1]);
    expect(report.nextTurn).toEqual({ status: 200, answered: true });
    expect(report.unhandled).toEqual([]);
  });

  it("X14 abort(reason) with a string: the caller's error says it", async () => {
    const report = await cancelled("abort with a string as the reason");
    expectStopped(report, "the page went away");
    expect(report.cancelled).toEqual([1]);
  });
});
