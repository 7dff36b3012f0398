// Another process on a conversation store, for the tests that need one (bundled, then run by Node):
//   die-in-tool <spec> <id>   begins a turn of conversation <id> (the default lease, renewed) and runs a tool
//                             that prints "in tool" and never returns: the test SIGKILLs it there.
//   write <spec> <id>         under umask 022, writes a conversation, then claims it and renews the claim.
// <spec> is a ChildStoreSpec as JSON: where the store lives.
import {
  beginConversationTurn,
  defineTool,
  FileConversationStore,
  type ConversationStore,
} from "entity-tools";
import { PostgresConversationStore } from "entity-tools/postgres";
import { FakePromptRunner } from "entity-tools/testing";

/** Where a store lives, for a child process to open the same one. */
export type ChildStoreSpec =
  | { readonly kind: "file"; readonly directory: string }
  | { readonly kind: "postgres"; readonly connectionString: string; readonly table: string };

function open(spec: ChildStoreSpec): ConversationStore {
  return spec.kind === "file"
    ? new FileConversationStore(spec.directory)
    : new PostgresConversationStore({ connectionString: spec.connectionString, table: spec.table });
}

const [command, specJson, id] = process.argv.slice(2);
const store = open(JSON.parse(specJson!) as ChildStoreSpec);

if (command === "die-in-tool") {
  const turn = await beginConversationTurn(store, id!);
  const hang = defineTool({
    name: "hang",
    description: "Never returns",
    execute: () => {
      process.stdout.write("in tool\n");
      return new Promise<string>(() => {});
    },
  });
  const fake = new FakePromptRunner().withTools(hang);
  fake.callTool("hang").respondWithText("never");
  // Keeps the process alive (the heartbeat's timer does not) until the test kills it.
  setInterval(() => {}, 60_000);
  await fake.run("Hang", { continueFrom: turn.snapshot });
} else if (command === "write") {
  process.umask(0o022);
  await store.put(
    id!,
    (await new FakePromptRunner().respondWithText("Kept.").run("Private words")).snapshot,
    undefined,
  );
  await beginConversationTurn(store, id!); // a claim (version 2) the process leaves when it ends
  await store.renewTurn!(id!, 2, Date.now() + 60_000); // and its lease file
  process.stdout.write("written\n");
} else {
  throw new Error(`unknown command ${command}`);
}
