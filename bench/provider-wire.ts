// The real provider packages (@ai-sdk/anthropic, @ai-sdk/openai `.responses`) with a `fetch` that records
// each request body they build and answers with a scripted turn in that API's wire format: the bench
// measures the bodies a provider would receive, without a network.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { ScriptedTurn } from "entity-tools/testing";

/** A model of `provider` that plays `turn(step)`, and every request body it sent, in order. */
export interface WireModel {
  readonly model: LanguageModel;
  readonly bodies: Record<string, unknown>[];
}

export type WireProviderName = "anthropic" | "openai";

/**
 * `keepBodies: false` keeps no request body (`bodies` stays empty): a step then costs what the provider
 * package does, not also the parse of a body it built.
 */
export function wireModel(
  provider: WireProviderName,
  turn: (step: number) => ScriptedTurn,
  keepBodies = true,
): WireModel {
  const bodies: Record<string, unknown>[] = [];
  let n = 0;
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    if (keepBodies) bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    n++;
    const reply = provider === "anthropic" ? anthropicMessage(turn(n), n) : responsesPayload(turn(n), n);
    return new Response(JSON.stringify(reply), { headers: { "content-type": "application/json" } });
  };
  const model =
    provider === "anthropic"
      ? createAnthropic({ baseURL: "http://127.0.0.1:9/v1", apiKey: "bench", fetch })("claude-sonnet-4-5")
      : createOpenAI({ baseURL: "http://127.0.0.1:9/v1", apiKey: "bench", fetch }).responses("gpt-5.4");
  return { model, bodies };
}

/**
 * A request body in the order the provider reads it for its prefix cache, as separately tokenized parts:
 * the tool list, the system prompt (Anthropic), then each message or input item.
 */
export function bodyParts(provider: WireProviderName, body: Record<string, unknown>): string[] {
  const items = (provider === "anthropic" ? body.messages : body.input) as unknown[];
  const head = provider === "anthropic" ? [body.tools, body.system] : [body.tools];
  return [...head, ...items].map((part) => JSON.stringify(part ?? null));
}

const calls = (turn: ScriptedTurn) => turn.toolCalls ?? [];

function anthropicMessage(turn: ScriptedTurn, n: number) {
  return {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [
      ...(turn.text !== undefined ? [{ type: "text", text: turn.text }] : []),
      ...calls(turn).map((c, i) => ({
        type: "tool_use",
        id: `toolu_${n}_${i}`,
        name: c.toolName,
        input: c.input ?? {},
      })),
    ],
    stop_reason: calls(turn).length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function responsesPayload(turn: ScriptedTurn, n: number) {
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 0,
    status: "completed",
    model: "gpt-5.4",
    output: [
      ...(turn.text !== undefined
        ? [
            {
              type: "message",
              id: `msg_${n}`,
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: turn.text, annotations: [] }],
            },
          ]
        : []),
      ...calls(turn).map((c, i) => ({
        type: "function_call",
        id: `fc_${n}_${i}`,
        call_id: `call_${n}_${i}`,
        name: c.toolName,
        arguments: JSON.stringify(c.input ?? {}),
        status: "completed",
      })),
    ],
    incomplete_details: null,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}
