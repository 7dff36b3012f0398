// Run in a new process, with test/support/refuse-network.mjs preloaded: replays the cassette named by the
// first argument twice, as recorded and after a change that stops the discovery, and prints what a test
// compares, as JSON.
import { request } from "node:http";
import { ReplayLanguageModel, RunRecorder } from "entity-tools/testing";
import { QUESTION, spendRunner } from "./spend-agent.js";

const file = process.argv[2]!;

/** Whether this process really cannot connect: fetch and node:http both refused. */
async function networkRefused(): Promise<boolean> {
  const viaFetch = await fetch("http://127.0.0.1:9/").then(
    () => false,
    (e: Error) => String((e.cause as Error | undefined)?.message).includes("network refused"),
  );
  const viaHttp = await new Promise<boolean>((resolve) => {
    try {
      request("http://127.0.0.1:9/")
        .on("error", (error) => resolve(error.message.includes("network refused")))
        .end();
    } catch (error) {
      resolve((error as Error).message.includes("network refused"));
    }
  });
  return viaFetch && viaHttp;
}

async function replay(discovery: boolean) {
  const recorder = new RunRecorder();
  const model = await ReplayLanguageModel.fromFile(file);
  try {
    const run = await spendRunner(model, { discovery, observer: recorder.observe }).run(QUESTION);
    const steps = recorder.steps.map((s) => ({
      offered: s.toolsOffered,
      calls: s.calls.map((c) => ({ tool: c.toolName, input: c.input, result: c.resultText })),
    }));
    return { result: run.result, steps };
  } catch (error) {
    const cause = (error as Error).cause as Record<string, unknown> | undefined;
    return {
      error: (error as Error).name,
      cause: {
        name: cause?.name,
        step: cause?.step,
        problem: cause?.problem,
        missingTools: cause?.missingTools,
      },
      message: (error as Error).message,
    };
  }
}

console.log(
  JSON.stringify({
    networkRefused: await networkRefused(),
    asRecorded: await replay(true),
    withoutDiscovery: await replay(false),
  }),
);
