// A scripted stand-in for the Vercel AI Gateway's language-model endpoint, for the AI SDK's own gateway
// provider (`createGateway({ baseURL })`, or the default provider a model id string resolves through).
// That provider posts the provider call's options as they are (prompt, tools, toolChoice, settings) and
// says in a header whether it wants a stream; the answer is the provider's result, whole or as a stream
// of its parts. So what the mock receives is exactly what the SDK (or our adapter) handed the provider.
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { partsOf } from "../../src/testing/stream-parts.js";
import {
  startScriptedApiServer,
  typedEventStream,
  type MockAnswer,
  type ScriptedApi,
} from "../../src/testing/scripted-api-server.js";

/** One scripted answer: a mock's answer, or tool calls whose input is given as the JSON text sent. */
export type GatewayReply =
  MockAnswer | { readonly toolCalls: readonly { readonly name: string; readonly inputText: string }[] };

/** A provider call's options as the gateway provider sent them. */
export interface GatewayCallOptions {
  readonly prompt: readonly { readonly role: string; readonly content: unknown }[];
  readonly tools?: readonly { readonly type: string; readonly name: string }[];
  readonly toolChoice?: unknown;
  readonly [option: string]: unknown;
}

/** A request the mock received. */
export interface GatewayRequest {
  /** Whether the provider asked for a stream (its `ai-language-model-streaming` header). */
  readonly body: { readonly stream: boolean };
  /** The model id the provider named (its `ai-language-model-id` header). */
  readonly modelId: string;
  /** Its `authorization` header (`Bearer <key>`). */
  readonly authorization: string;
  /** The call's options, as sent. */
  readonly options: GatewayCallOptions;
  /** The tools the model called so far in the conversation this request carries. */
  readonly calledTools: readonly string[];
}

/** A running mock: the `baseURL` for `createGateway`, what it was sent, how to stop it. */
export interface GatewayMock {
  readonly baseURL: string;
  readonly requests: readonly GatewayRequest[];
  close(): Promise<void>;
}

/** Starts the mock on 127.0.0.1, answering each `POST /language-model` with what `reply` returns. */
export async function startGatewayMock(
  reply: (request: GatewayRequest) => GatewayReply,
): Promise<GatewayMock> {
  const server = await startScriptedApiServer(GATEWAY_API, reply);
  return { baseURL: server.origin, requests: server.requests, close: server.close };
}

const USAGE = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

const GATEWAY_API: ScriptedApi<GatewayRequest, GatewayReply> = {
  path: "/language-model",
  read: (body, headers) => {
    const options = body as unknown as GatewayCallOptions;
    return {
      body: { stream: headers["ai-language-model-streaming"] === "true" },
      modelId: String(headers["ai-language-model-id"]),
      authorization: String(headers.authorization),
      options,
      calledTools: options.prompt.flatMap((message) =>
        message.role === "assistant" && Array.isArray(message.content)
          ? (message.content as { type: string; toolName?: string }[])
              .filter((part) => part.type === "tool-call")
              .map((part) => part.toolName!)
          : [],
      ),
    };
  },
  whole: resultOf,
  // The provider's stream parts, each as one event's JSON.
  events: (answer, request) =>
    typedEventStream(partsOf(resultOf(answer, request)) as unknown as Record<string, unknown>[]),
  errorBody: (status, message) => ({ error: { type: "internal_server_error", message, status } }),
};

/** The provider's result for an answer; tool calls numbered within the conversation, so alike ones match. */
function resultOf(answer: GatewayReply, request: GatewayRequest): LanguageModelV3GenerateResult {
  const unified = "text" in answer ? "stop" : "tool-calls";
  return {
    content:
      "text" in answer
        ? [{ type: "text", text: answer.text }]
        : answer.toolCalls.map((call, i) => ({
            type: "tool-call",
            toolCallId: `call_${request.calledTools.length + i}`,
            toolName: call.name,
            input: "inputText" in call ? call.inputText : JSON.stringify(call.input),
          })),
    finishReason: { unified, raw: unified },
    usage: USAGE,
    warnings: [],
  };
}
