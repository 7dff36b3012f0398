// A process that dies in the middle of a logged run keeps what happened before: killed (SIGKILL, nothing of
// ours runs after it), every step before the one it died in is on disk, whole lines only; ended by an
// uncaught error, the step it died in too (what is left is written as the process exits). A run that never
// lets the event loop turn (an instant model's) has its steps on disk as it goes, not only at its end.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defineTool, readRunLog, runView } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "run-log-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A process running a logged 10-step run whose tool `step` takes `toolMs` (0: at once, as a scripted
 * model's steps come; 5: slower than the log's write interval, as a real model's do) and, at step 6,
 * crashes the process the way `how` says. What the log holds then, as the viewer reads it.
 */
async function crashAt6(how: "kill" | "throw", toolMs: number) {
  const folder = path.join(dir, `${how}-${toolMs}`);
  const script = `
    import { defineTool } from "entity-tools";
    import { FakePromptRunner } from "entity-tools/testing";
    let calls = 0;
    const step = defineTool({
      name: "step",
      description: "One step",
      execute: async () => {
        if (++calls === 6) {
          if (${JSON.stringify(how)} === "kill") process.kill(process.pid, "SIGKILL");
          setImmediate(() => { throw new Error("the process crashed"); });
          return new Promise(() => {});
        }
        await new Promise((resolve) => setTimeout(resolve, ${toolMs}));
        return "step " + calls;
      },
    });
    const fake = new FakePromptRunner();
    for (let i = 0; i < 10; i++) fake.callTool("step");
    await fake.respondWithText("done").withTools(step).withRunLog(${JSON.stringify(folder)}).run("go");
  `;
  const status = await new Promise<number | string | null>((resolve) =>
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd: root }, (error) =>
      resolve(error ? (error.signal ?? error.code ?? null) : 0),
    ),
  );
  return { status, ...onDisk(folder) };
}

/** What the one log in `folder` holds on disk now, as the viewer reads it. */
function onDisk(folder: string) {
  const [file] = readdirSync(folder).filter((f) => f.endsWith(".jsonl"));
  const read = readRunLog(readFileSync(path.join(folder, file!), "utf8"));
  const view = runView(read);
  return {
    problems: read.problems,
    end: view.end,
    steps: view.steps.map((s) => [
      s.step,
      s.response ? "answered" : "asked",
      ...s.calls.map((c) => c.result),
    ]),
  };
}

const ran = (n: number) => [n, "answered", `step ${n}`];

// The two processes at once: each spends most of its time importing the package.
let killed: Awaited<ReturnType<typeof crashAt6>>;
let thrown: Awaited<ReturnType<typeof crashAt6>>;
beforeAll(async () => {
  [killed, thrown] = await Promise.all([crashAt6("kill", 5), crashAt6("throw", 0)]);
});

it("killed, the process leaves every step before the one it died in, each line whole", () => {
  expect(killed).toEqual({
    status: "SIGKILL",
    problems: [],
    end: undefined,
    steps: [ran(1), ran(2), ran(3), ran(4), ran(5), [6, "asked"]],
  });
});

it("ended by an uncaught error, even with steps faster than a write, it leaves the step it died in", () => {
  expect(thrown).toEqual({
    status: 1,
    problems: [],
    end: undefined,
    steps: [ran(1), ran(2), ran(3), ran(4), ran(5), [6, "answered"]],
  });
});

it("a run that never yields (an instant model) has its earlier steps on disk while it runs", async () => {
  const folder = path.join(dir, "never-yields");
  // Ten calls at once (steps closer than the log's write interval), the 11th runs 3 ms by the clock
  // (busy, not asleep: the event loop never turns), and the 12th reads the log as it is on disk then.
  let calls = 0;
  let seen: ReturnType<typeof onDisk> | undefined;
  const step = defineTool({
    name: "step",
    description: "One step",
    execute: () => {
      calls++;
      if (calls === 11) for (const until = performance.now() + 3; performance.now() < until;);
      if (calls === 12) seen = onDisk(folder);
      return `step ${calls}`;
    },
  });
  const fake = new FakePromptRunner();
  for (let i = 0; i < 12; i++) fake.callTool("step");
  await fake.respondWithText("done").withTools(step).withRunLog(folder).run("go");
  expect(seen).toEqual({
    problems: [],
    end: undefined,
    steps: [...Array.from({ length: 11 }, (_, i) => ran(i + 1)), [12, "asked"]],
  });
});
