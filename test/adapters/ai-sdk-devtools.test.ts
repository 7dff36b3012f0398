// The AI SDK's own DevTools (`@ai-sdk/devtools`) with our loop: a model wrapped with its middleware
// (`wrapLanguageModel`) runs in PromptRunner, and each of our steps is a step of its viewer, with the tools
// we offered at that step (discovered ones included). Its viewer runs as users start it (`npx
// @ai-sdk/devtools` in the project folder: it reads `.devtools/` there), on a port of its own, and is asked
// through its API. ai 6 takes devtools 0.0.x, ai 7 devtools 1.x (the lane's own copy).
import "../../examples/register-schemas.js";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { wrapLanguageModel, type LanguageModel } from "ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PromptRunner } from "entity-tools";
import { ScriptedLanguageModel } from "entity-tools/testing";
import { CustomerSearchTools } from "../../examples/domain/customer-search-tools.js";

const lane = process.env["ENTITY_TOOLS_LANE"] === "ai7" ? "lanes/ai7/node_modules" : "node_modules";
const viewerScript = path.resolve(lane, "@ai-sdk/devtools/dist/viewer/server.js");
const project = mkdtempSync(path.join(tmpdir(), "devtools-project-"));
const home = process.cwd();
let viewer: ChildProcess;
let port: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  port = await freePort();
  viewer = spawn(process.execPath, [viewerScript], {
    cwd: project,
    env: { ...process.env, AI_SDK_DEVTOOLS_PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    viewer.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("running") && resolve());
    viewer.on("exit", (code) => reject(new Error(`the DevTools viewer exited (${code})`)));
  });
  // The middleware keeps its data under the working folder, read when it is imported: the project's.
  process.env["AI_SDK_DEVTOOLS_PORT"] = String(port);
  process.chdir(project);
});
afterAll(() => {
  process.chdir(home);
  viewer?.kill();
  rmSync(project, { recursive: true, force: true });
});

const api = async <T>(pathname: string): Promise<T> => {
  const response = await fetch(`http://localhost:${port}${pathname}`);
  return (await response.json()) as T;
};

it("each step of a discovery run shows up in the AI SDK DevTools, with the tools offered at that step", async () => {
  const { devToolsMiddleware } = await import("@ai-sdk/devtools");
  const scripted = new ScriptedLanguageModel()
    .callTool("searchCustomer", { name: "John Smith" })
    .callTool("customer_c123_getAverageSpend")
    .respondWithText("John Smith spends 46.83 USD a month.");
  const model = wrapLanguageModel({
    model: scripted as never,
    middleware: devToolsMiddleware() as never,
  }) as LanguageModel;
  const ours: string[][] = [];
  const run = await new PromptRunner({ model })
    .withTools(new CustomerSearchTools())
    .withToolProviderDiscovery()
    .withObserver((e) => void (e.type === "ToolLoopIteration" && ours.push([...e.toolNames])))
    .run("What does John Smith spend?");
  expect(run.status).toBe("completed");

  const runs = await api<{ id: string; stepCount: number; firstMessage: string }[]>("/api/runs");
  expect(runs).toEqual([
    expect.objectContaining({ stepCount: 3, firstMessage: "What does John Smith spend?" }),
  ]);
  const { steps } = await api<{ steps: { step_number: number; input: string; output: string }[] }>(
    `/api/runs/${runs[0]!.id}`,
  );
  const offered = steps.map((s) =>
    (JSON.parse(s.input) as { tools: { name: string }[] }).tools.map((t) => t.name),
  );
  expect(offered).toEqual(ours);
  expect(offered[1]).toContain("customer_c123_getAverageSpend");
  expect(steps.map((s) => s.step_number)).toEqual([1, 2, 3]);
});
