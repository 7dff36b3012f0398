// How the shipped recordings were made, offline. There is no API key where this repository is built, so a
// local stand-in for the OpenAI Responses API (stand-in-model.ts, a scripted model) plays the model, and
// the eval runs against it exactly as against any OpenAI-compatible server: OPENAI_BASE_URL, the real
// @ai-sdk/openai provider, `--record`. The stand-in is deterministic: running this again writes the same
// bytes (a test checks that the shipped files are what it writes). To record a real model instead:
// `OPENAI_API_KEY=… npx tsx examples/evals/eval.ts --model <id> --record`.
//
//   npx tsx examples/evals/record-offline.ts [--recordings DIR]   # default: examples/evals/recordings
import { parseArgs } from "node:util";
import { startOpenAiResponsesMock } from "entity-tools/testing";
import { main } from "./eval.js";
import { standInModel } from "./stand-in-model.js";

const { values } = parseArgs({ options: { recordings: { type: "string" } } });
const api = await startOpenAiResponsesMock(standInModel);
try {
  process.env.OPENAI_BASE_URL = api.baseURL;
  process.env.OPENAI_API_KEY = "";
  const recordings = values.recordings ? ["--recordings", values.recordings] : [];
  process.exitCode = await main(["--model", "stand-in", "--record", ...recordings]);
} finally {
  await api.close();
}
