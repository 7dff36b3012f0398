// Run in a new process: records three model calls to the cassette named by the first argument, and the
// model kills this process (SIGKILL, no exit handlers) while it is answering the third.
import { generateText } from "ai";
import { ScriptedLanguageModel, recordModel } from "entity-tools/testing";

const scripted = new ScriptedLanguageModel()
  .respondWithText("First answer.")
  .respondWithText("Second answer.")
  .respondWith("the process dies", () => process.kill(process.pid, "SIGKILL"));
const model = recordModel(scripted, process.argv[2]);
for (const prompt of ["one", "two", "three"]) await generateText({ model, prompt });
