// Cancelling a run every way a user does (docs/reliability.md, X01–X18, X20), each in a process of its own
// (support/cancellation-child.ts) that must exit by itself: a run that leaves a model request, a timer or
// a socket behind keeps it up, and the test times out. The model is `@ai-sdk/openai` over HTTP; what the
// caller got, the requests the client cancelled, the run log's last record, the spans left open, events
// after the run's end and unhandled rejections are the child's report.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { bundledScript } from "../support/bundled-script.js";

// On the ai 7 lane the child resolves `ai` and the providers from the lane.
const lane = process.env.ENTITY_TOOLS_LANE === "ai7" ? ["--import", "./bench/lanes/ai7.mjs"] : [];
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill("SIGKILL"); // only a child that did not exit (the test failed)
  children.clear();
});

const CHILD = "test/reliability/support/cancellation-child.ts";
/** The scenario that starts examples/web-chat, which reads its page beside its source: run from source. */
const WEB_CHAT = "examples/web-chat: the page leaves while the answer streams";

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
  const program =
    scenario === WEB_CHAT
      ? ["--import", "tsx", ...lane, CHILD]
      : [...lane, await bundledScript(CHILD, ["*/examples/web-chat/server.js"])];
  const child = spawn(process.execPath, [...program, scenario], { stdio: ["ignore", "pipe", "pipe"] });
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

/**
 * A run that ended cancelled: the caller's error, the log's end record, the model requests the client
 * cancelled (numbered from 1: those in flight) and, when given, how many were made; no span left open,
 * nothing after the end.
 */
function expectStopped(
  report: Report,
  message: string,
  model: { cancelled: number[]; requests?: number },
): void {
  expect(report.caller).toMatchObject(aborted(message));
  expect(report.cancelled).toEqual(model.cancelled);
  if (model.requests !== undefined) expect(report.requests).toBe(model.requests);
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
    expectStopped(report, USER, { cancelled: [1] });
    expect(report.parts).toEqual({ types: ["text-delta", "text-delta"], threw: aborted(USER) });
  });

  it("X02 abort while run() waits for the model: the request is cancelled", async () =>
    expectStopped(await cancelled("abort while run() waits for the model"), USER, { cancelled: [1] }));

  it("X03 abort during a tool call that honours its signal: the call's result says it was cancelled", async () => {
    const report = await cancelled("abort during a tool call that honours its signal");
    expectStopped(report, USER, { cancelled: [] });
    expect(report.caller!.lastToolResult).toEqual(CANCELLED_CALL);
  });

  it("X04 a tool that ignores its signal: the run ends at the abort; the late result is dropped (no event after the end)", async () => {
    const report = await cancelled(
      "abort during a tool call that ignores its signal and resolves after the run ended",
    );
    expectStopped(report, USER, { cancelled: [] });
    expect(report.caller!.lastToolResult).toEqual(CANCELLED_CALL);
  });

  it("X05 abort while the approval predicate decides: the run does not wait for it", async () =>
    expectStopped(await cancelled("abort while the approval predicate decides"), USER, {
      cancelled: [],
      requests: 1,
    }));

  it("X06 a paused run resumed, aborted in its approved call: the resume's log file ends failed, the pause's paused", async () => {
    const report = await cancelled("abort a resumed run's approved call");
    expectStopped(report, USER, { cancelled: [] });
    expect(report.paused).toBe("awaiting-approval");
    expect(report.log).toEqual([
      { type: "end", status: "awaiting-approval" },
      { type: "end", status: "failed", error: aborted(USER) },
    ]);
    // The call's cancelled result comes after the abort: the reader is not handed it (X15).
    expect(report.parts).toEqual({ types: [], threw: aborted(USER) });
  });

  it("X07 abort during the restart a read_section asks for: no new attempt calls the model", async () =>
    expectStopped(await cancelled("abort during the restart read_section asks for"), USER, {
      cancelled: [],
      requests: 1,
    }));

  it("X08 a signal aborted before the run starts: no model request", async () =>
    expectStopped(await cancelled("a signal aborted before the run starts"), USER, {
      cancelled: [],
      requests: 0,
    }));

  it("X09 the reader breaks out of for await over parts: the run is cancelled, the model request too", async () => {
    const report = await cancelled("the reader breaks out of for await");
    expectStopped(report, READER_STOPPED, { cancelled: [1] });
    expect(report.parts).toEqual({ types: ["text-delta"] });
  });

  it("X10 the reader throws: it gets its own error; the run is cancelled, the model request too", async () => {
    const report = await cancelled("the reader throws");
    expectStopped(report, READER_STOPPED, { cancelled: [1] });
    expect(report.parts).toEqual({
      types: ["text-delta"],
      threw: { name: "Error", message: "the reader's own bug" },
    });
  });

  it("X11 a UI message stream Response whose body is cancelled (a route handler's client left): the run is cancelled", async () =>
    expectStopped(await cancelled("the UI stream response's body is cancelled"), UI_CANCELLED, {
      cancelled: [1],
    }));

  it("X12 pipeUIMessageStreamToResponse: the client disconnects; the run is cancelled", async () =>
    expectStopped(await cancelled("the client of pipeUIMessageStreamToResponse leaves"), UI_CANCELLED, {
      cancelled: [1],
    }));

  it("X13 examples/web-chat: the page leaves mid-answer; the model request is cancelled and the next turn goes on", async () => {
    const report = await cancelled("examples/web-chat: the page leaves while the answer streams");
    expect(report.cancelled).toEqual([1]);
    expect(report.nextTurn).toEqual({ status: 200, answered: true });
    expect(report.unhandled).toEqual([]);
  });

  it("X14 abort(reason) with a string: the caller's error says it", async () =>
    expectStopped(await cancelled("abort with a string as the reason"), "the page went away", {
      cancelled: [1],
    }));
  it("X15 abort at the first of several text parts already received: no part comes after the abort", async () => {
    const report = await cancelled("abort at the first of several text parts already received");
    expectStopped(report, USER, { cancelled: [1] });
    expect(report.parts).toEqual({ types: ["text-delta"], threw: aborted(USER) });
  });
});

describe("a reader slower than the run: the run waits for it (backpressure)", () => {
  const HIGH_WATER = 64; // parts a reader may be behind (docs/conversations.md)

  it("X16 a reader that reads one part per turn of the event loop: the model is never far ahead of it", async () => {
    const report = await cancelled("a reader slower than the run");
    expect(report.caller).toEqual({ status: "completed" });
    expect(report.types).toEqual(["text-delta", "tool-call", "tool-result", "step-finish", "finish"]);
    const { produced, read, maxAhead } = report.counted as {
      produced: number;
      read: number;
      maxAhead: { first: number; second: number };
    };
    expect({ produced, read }).toEqual({ produced: 2000, read: 2000 });
    // A step the run streams itself (the provider's stream) waits for the reader at each part.
    expect(maxAhead.second).toBeLessThanOrEqual(HIGH_WATER + 8);
    // The first step is `streamText`'s: it reads its provider at the reader's pace too (X21; before, ai 6's
    // read the whole step ahead).
    expect(maxAhead.first).toBeLessThanOrEqual(HIGH_WATER + 32);
    expect(report.unhandled).toEqual([]);
  });

  it("X20 a UI message stream read one chunk per turn of the event loop (a slow client): the model is never far ahead of it", async () => {
    const report = await cancelled("a UI message stream read slower than the run");
    expect(report.caller).toEqual({ status: "completed" });
    expect(report.types).toEqual(expect.arrayContaining(["text-delta", "tool-output-available", "finish"]));
    const { produced, read, maxAhead } = report.counted as {
      produced: number;
      read: number;
      maxAhead: { first: number; second: number };
    };
    expect({ produced, read }).toEqual({ produced: 2000, read: 2000 });
    // The parts' 64, then as many UI chunks (a text part is one chunk).
    expect(maxAhead.second).toBeLessThanOrEqual(2 * HIGH_WATER + 8);
    expect(maxAhead.first).toBeLessThanOrEqual(2 * HIGH_WATER + 32);
    expect(report.unhandled).toEqual([]);
  });

  it("X17 nobody reads parts, the caller awaits result: the run ends; the parts are dropped, a late reader told so", async () => {
    const report = await cancelled("nobody reads parts; the caller awaits result");
    expect(report.caller).toEqual({ status: "completed" });
    expect(report.counted).toMatchObject({ produced: 2000, read: 0 });
    expect(report.lateReader).toEqual({
      types: [],
      threw: {
        name: "StreamPartsDroppedError",
        message:
          "This run's parts were dropped: nobody read them while it made more than 1,000 (a RunStream keeps that many for a reader that has not started). Start reading parts (or a UI stream) before awaiting anything else, or await result for the outcome",
      },
    });
    expect(report.unhandled).toEqual([]);
  });

  it("X18 the signal aborts while the run waits for its reader: the run ends at once, no part after the abort", async () => {
    const report = await cancelled("abort while the run waits for its reader");
    expectStopped(report, USER, { cancelled: [], requests: 0 });
    // The run waited in its first step (before: on ai 6, before its second: `streamText` read the first whole).
    expect(report.producedAtAbort).toBeLessThanOrEqual(HIGH_WATER + 32);
    expect(report.parts).toEqual({ types: [], threw: aborted(USER) });
  });
});
