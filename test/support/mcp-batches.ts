// JSON-RPC batches sent to a 2025-11-25 session (docs/reliability.md P11, T05): the tool they call (which
// counts its runs, so a test tells whether a refused call ran), the batch, and what a session answers it,
// for the tests of the example's host and of our transports.
import { defineTool } from "entity-tools";

/** A tool `measure` (the length of a text), and how many times it ran. */
export function measuringTool() {
  const runs = { count: 0 };
  const tool = defineTool({
    name: "measure",
    description: "The length of a text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: ({ text }: { text: string }) => {
      runs.count++;
      return text.length;
    },
  });
  return { tool, runs };
}

/** A `tools/call` of `measure`. */
export const measureCall = (id: number, text: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "measure", arguments: { text } },
});

/** Two calls in one body: "ab" (id 1), "abc" (id 2). */
export const TWO_CALLS = [measureCall(1, "ab"), measureCall(2, "abc")];

/** A session at 2025-11-25's answer to a batch: the status and the body. */
export const BATCH_REFUSED = [
  400,
  {
    jsonrpc: "2.0",
    error: {
      code: -32600,
      message:
        "Invalid Request: this session speaks protocol 2025-11-25, which has no JSON-RPC batches (removed in 2025-06-18): send each message in a POST of its own",
    },
    id: null,
  },
];

/** The answers a served `TWO_CALLS` gets on its event stream. */
export const TWO_ANSWERS = [
  { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "2" }], isError: false } },
  { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "3" }], isError: false } },
];

/** The messages of an event stream's body. */
export async function streamedMessages(response: Response): Promise<unknown[]> {
  const lines = (await response.text()).split("\n").filter((line) => line.startsWith("data: {"));
  return lines.map((line) => JSON.parse(line.slice(6)) as unknown);
}
