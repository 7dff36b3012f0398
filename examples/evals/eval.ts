// An eval you can copy: asks a model N prompts in each binding mode (per-instance, handles, deferred),
// scores each run's tool use with scoreToolUse, and prints the scores side by side.
//
//   npx tsx examples/evals/eval.ts                 # offline: replays the recordings shipped beside it
//   OPENAI_API_KEY=… npx tsx examples/evals/eval.ts [--model gpt-5.4-mini] [--record]
//   OPENAI_BASE_URL=http://localhost:11434/v1 npx tsx examples/evals/eval.ts --model <served model>
//
// With a key (or a base URL) it asks that model through @ai-sdk/openai's Responses API; `--record` also
// writes each run to <recordings>/<mode>/<prompt>.json (what the offline run replays; `--recordings DIR`,
// default examples/evals/recordings). Without either it replays those recordings, with no network, so it
// runs in CI. How the shipped recordings were made: record-offline.ts (docs/testing.md, "An eval over N
// prompts"). Exits 1 when a run failed (a recording that no longer fits the code, an unreachable model).
import "../register-schemas.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { PromptRunner } from "entity-tools";
import {
  ReplayLanguageModel,
  RunRecorder,
  recordModel,
  scoreToolUse,
  type ToolUseScore,
} from "entity-tools/testing";
import { DEFAULT_OPENAI_MODEL } from "../demo/choose-model.js";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";
import { BINDING_MODES, type BindingMode } from "./binding-modes.js";
import { EVAL_CASES, type EvalCase } from "./eval-cases.js";
import { printTable } from "./print-table.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where the model comes from, and where recordings go (or come from). */
export interface EvalSource {
  /** The model for one case in one mode: live (recorded when `record`), or the recording replayed. */
  model(mode: BindingMode, item: EvalCase): Promise<LanguageModel>;
  readonly label: string;
}

/** A recording's file: recordings/<mode>/<prompt>.json under `dir`. */
export const recordingOf = (dir: string, mode: BindingMode, item: EvalCase) =>
  path.join(dir, mode.name, `${item.id}.json`);

/** Asks every case in every mode and scores each run; a run that fails is reported, not fatal. */
export async function runEval(source: EvalSource) {
  const results: { mode: BindingMode; item: EvalCase; score?: ToolUseScore; error?: string }[] = [];
  for (const mode of BINDING_MODES) {
    for (const item of EVAL_CASES) {
      const recorder = new RunRecorder();
      try {
        const runner = mode
          .configure(
            new PromptRunner({ model: await source.model(mode, item), modelSettings: { maxRetries: 1 } }),
          )
          .withSystemPrompt("You answer questions about customers. Use the tools; never guess numbers.")
          .withTools(new CustomerSearchTools())
          // Small on purpose: two customers' tools do not fit, so the table shows what a budget does to
          // per-instance names (a tool never offered) and not to handles.
          .withMaxInjectedTools(2)
          .withObserver(recorder.observe);
        await runner.run(item.prompt);
        results.push({ mode, item, score: scoreToolUse(recorder, item.expected, item.options) });
      } catch (error) {
        results.push({ mode, item, error: (error as Error).message.split("\n")[0] });
      }
    }
  }
  return results;
}

/** The model the environment names: a base URL, a key, or neither (replay the recordings). */
function sourceFromEnvironment(
  env: NodeJS.ProcessEnv,
  modelId: string | undefined,
  record: boolean,
  recordings: string,
): EvalSource {
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) {
    const id = modelId ?? DEFAULT_OPENAI_MODEL;
    const provider = createOpenAI({
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      apiKey: env.OPENAI_API_KEY ?? "not-needed",
    });
    return {
      label: `${id} at ${env.OPENAI_BASE_URL ?? "OpenAI"}${record ? `, recorded to ${recordings}` : ""}`,
      model: async (mode, item) => {
        const live = provider.responses(id);
        return record ? recordModel(live, recordingOf(recordings, mode, item)) : live;
      },
    };
  }
  return {
    label: `the recordings in ${path.relative(process.cwd(), recordings)} (replayed offline; set OPENAI_API_KEY or OPENAI_BASE_URL to ask a real model)`,
    model: (mode, item) => ReplayLanguageModel.fromFile(recordingOf(recordings, mode, item)),
  };
}

/** The eval as a command: `argv` are its options (see the file's header); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: "string" },
      record: { type: "boolean", default: false },
      recordings: { type: "string", default: path.join(here, "recordings") },
    },
  });
  const source = sourceFromEnvironment(process.env, values.model, values.record, values.recordings);
  console.log(`entity-tools eval · model: ${source.label}`);
  console.log(`${EVAL_CASES.length} prompts × ${BINDING_MODES.length} binding modes\n`);
  const results = await runEval(source);
  printTable(results, (line) => console.log(line));
  return results.some((r) => r.error) ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
