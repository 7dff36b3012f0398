// `npm run demo`: runs an example agent end to end and prints what happened at every step.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { PromptRunner, type RunCost } from "entity-tools";
import { EXAMPLES } from "./agents.js";
import { chooseModel, DEFAULT_OPENAI_MODEL } from "./demo/choose-model.js";
import { formatEntry, mermaidTrace } from "./demo/format-trace.js";
import { newestRunFile, traceOfRunLog } from "./demo/log-trace.js";
import { DEMO_PRICES, formatCost, withEstimatedUsage } from "./demo/run-cost.js";
import { TraceRecorder } from "./demo/trace-recorder.js";

const HELP = `Usage: npm run demo -- [--example NAME] [--model ID] [--trace DIR]

Runs an entity-tools example agent and prints each step: the tools offered (and which are new), each
call with its arguments, each result (abbreviated), each injection, the final answer, and what the run
cost, per step and per discovered provider.

  --example  ${EXAMPLES.map((e) => e.name).join(" | ")} (default: customer-spend)
  --model    model id; default ${DEFAULT_OPENAI_MODEL} with OPENAI_API_KEY, required with OPENAI_BASE_URL
  --trace    also log the run into this folder (a run log: npx entity-tools view DIR shows it), with
             a Mermaid sequence diagram of it drawn from the log (DIR/trace.md)
  --help     this text

Model: OPENAI_BASE_URL set → that OpenAI-compatible server (Ollama, llama.cpp, vLLM); OPENAI_API_KEY set
→ OpenAI; neither → the built-in offline model, which plays the example's scripted conversation.`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        example: { type: "string", default: "customer-spend" },
        model: { type: "string" },
        trace: { type: "string" },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    console.error(`demo: ${(error as Error).message} (see --help)`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const agent = EXAMPLES.find((e) => e.name === values.example);
  if (!agent) {
    console.error(
      `demo: unknown example "${values.example}"; choose one of ${EXAMPLES.map((e) => e.name).join(", ")}`,
    );
    return 2;
  }
  try {
    const chosen = chooseModel(process.env, values.model, agent);
    console.log(
      `entity-tools demo · example: ${agent.name}\nmodel: ${chosen.label}\nquestion: ${agent.question}`,
    );
    const trace = new TraceRecorder((entry) => console.log(formatEntry(entry)));
    let cost: RunCost | undefined;
    const model = chosen.offline ? withEstimatedUsage(chosen.model) : chosen.model;
    const configured = agent
      .configure(new PromptRunner({ model, modelSettings: { maxRetries: 1 } }))
      .withPricing(DEMO_PRICES);
    const runner = (values.trace ? configured.withRunLog(values.trace) : configured)
      .withObserver(trace.observe)
      .withObserver((event) => {
        if (event.type === "RunFinished") cost = event.cost;
      });
    const answer = await agent.ask(runner, agent.question);
    const shown = typeof answer === "string" ? answer : JSON.stringify(answer, null, 2);
    console.log(
      `\n── answer${typeof answer === "object" && answer !== null ? ` (${answer.constructor.name})` : ""}:\n${shown}`,
    );
    if (cost) console.log(formatCost(cost, chosen.offline));
    if (values.trace) {
      const file = newestRunFile(values.trace);
      const diagram = path.join(values.trace, "trace.md");
      const entries = traceOfRunLog(file);
      writeFileSync(
        diagram,
        mermaidTrace(`entity-tools demo: ${agent.name}`, agent.question, entries, shown),
      );
      console.log(`\nrun log: ${file}\ndiagram: ${diagram}\nsee it: npx entity-tools view ${values.trace}`);
    }
    return 0;
  } catch (error) {
    // One line, no stack: the loop's errors already name the cause (e.g. the unreachable server).
    console.error(`demo: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
