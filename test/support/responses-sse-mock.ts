// A mock of the OpenAI Responses API streaming endpoint (SSE) on 127.0.0.1, for the real `codex app-server`.
// Each POST /v1/responses gets the next scripted reply: function calls or a final message. Requests are
// recorded so tests can assert what Codex sent to its model (tools offered, function-call outputs).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body.js";

export type FixedReply =
  | { readonly message: string }
  | {
      readonly functionCalls: readonly {
        readonly name: string;
        readonly arguments: unknown;
        /** The namespace of a namespaced tool (Codex offers an MCP server's tools as `mcp__<server>`). */
        readonly namespace?: string;
      }[];
    };
export type ResponsesReply = FixedReply | ((request: Record<string, unknown>) => FixedReply);

export interface ResponsesMock {
  readonly baseURL: string;
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startResponsesMock(replies: readonly ResponsesReply[]): Promise<ResponsesMock> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    requests.push(body);
    const scripted = replies[requests.length - 1] ?? { message: "(mock: no reply scripted)" };
    const reply = typeof scripted === "function" ? scripted(body) : scripted;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const id = `resp_${requests.length}`;
    const send = (event: Record<string, unknown>) =>
      res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    send({ type: "response.created", response: { id } });
    const items =
      "message" in reply
        ? [
            {
              type: "message",
              role: "assistant",
              id: `msg_${requests.length}`,
              content: [{ type: "output_text", text: reply.message }],
            },
          ]
        : reply.functionCalls.map((c, i) => ({
            type: "function_call",
            id: `fc_${requests.length}_${i}`,
            call_id: `call_${requests.length}_${i}`,
            name: c.name,
            ...(c.namespace ? { namespace: c.namespace } : {}),
            arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
          }));
    for (const item of items) send({ type: "response.output_item.done", item });
    send({
      type: "response.completed",
      response: {
        id,
        // Fixed, non-zero counts, so a client's usage reporting can be checked.
        usage: {
          input_tokens: 100,
          input_tokens_details: null,
          output_tokens: 7,
          output_tokens_details: null,
          total_tokens: 107,
        },
      },
    });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
