// Hostile or broken model output as it arrives through the real provider packages (`@ai-sdk/openai`
// Responses and Chat, `@ai-sdk/anthropic`) from their wire mocks, in both binding modes, run and stream
// (docs/reliability.md, W rows; every case tried: /work/notes/fuzz7.md). Each mock's answer is scripted, and
// a `fetch` between the provider and its mock changes the bytes of one answer where the case needs what a
// mock never sends (numbers JSON.parse changes, a cut response, an error event mid-stream, odd usage).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LlmTool,
  ModelCallError,
  PromptRunner,
  StrategyError,
  ToolProvider,
  readRunLog,
  type ToolLoopEvent,
} from "entity-tools";
import {
  startAnthropicMessagesMock,
  startOpenAiChatMock,
  startOpenAiResponsesMock,
  type MockReply,
} from "entity-tools/testing";
import { tempDir } from "../support/temp-dir.js";

const ran: string[] = [];

@ToolProvider({ prefix: "ticket" })
class Ticket {
  constructor(public id: string) {}
  @LlmTool({
    description: "Move this ticket to a queue",
    parameters: { type: "object", properties: { queue: { type: "integer" } }, required: ["queue"] },
  })
  move(queue: number): string {
    ran.push(`move ${this.id} ${queue}`);
    return `moved ${this.id} to ${queue}`;
  }
}

class Desk {
  @LlmTool("Open tickets")
  openTickets(): Ticket[] {
    return [new Ticket("t1")];
  }
  @LlmTool({
    description: "Look an order up",
    parameters: {
      type: "object",
      properties: { order: { type: "integer" }, weight: { type: "number" } },
      required: ["order"],
    },
  })
  lookup(order: number, weight?: number): string {
    ran.push(`lookup ${order} ${weight ?? ""}`);
    return `order ${order}`;
  }
}

type Api = "responses" | "chat" | "anthropic";
type Binding = "per-instance" | "handles";
/** Changes the text of one answer (a JSON body, or the text of its server-sent events). */
type Rewrite = (body: string) => string;

/** Per request of the current test: the scripted answer, and how its bytes are changed. */
let script: { reply: MockReply | ((results: string[]) => MockReply); rewrite?: Rewrite }[] = [];
let replies = 0;
let fetches = 0;
const mocks = {} as Record<Api, { requests: readonly { toolResults: readonly { text: string }[] }[] }>;
const models = {} as Record<Api, () => LanguageModel>;
const closers: (() => Promise<void>)[] = [];

const rewriting: typeof fetch = async (url, init) => {
  const rewrite = script[fetches++]?.rewrite;
  const response = await fetch(url, init);
  if (!rewrite) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(rewrite(await response.text()), { status: response.status, headers });
};

beforeAll(async () => {
  const reply = (request: { toolResults: readonly { text: string }[] }): MockReply => {
    const turn = script[replies++]?.reply ?? { text: "(unscripted)" };
    return typeof turn === "function" ? turn(request.toolResults.map((r) => r.text)) : turn;
  };
  const [responses, chat, anthropic] = await Promise.all([
    startOpenAiResponsesMock(reply),
    startOpenAiChatMock(reply),
    startAnthropicMessagesMock(reply),
  ]);
  Object.assign(mocks, { responses, chat, anthropic });
  closers.push(responses.close, chat.close, anthropic.close);
  const openai = (baseURL: string) => createOpenAI({ baseURL, apiKey: "k", fetch: rewriting });
  models.responses = () => openai(responses.baseURL).responses("gpt-test");
  models.chat = () => openai(chat.baseURL).chat("gpt-test");
  models.anthropic = () =>
    createAnthropic({ baseURL: `${anthropic.baseURL}/v1`, apiKey: "k", fetch: rewriting })(
      "claude-sonnet-4-5",
    );
});
afterAll(() => Promise.all(closers.map((close) => close())));

/** Runs `turns` against `api`'s mock; what the caller got, the model read after each step, events, log. */
async function play(
  api: Api,
  how: "run" | "stream",
  turns: typeof script,
  binding: Binding = "per-instance",
) {
  script = turns;
  replies = fetches = 0;
  ran.length = 0;
  const before = mocks[api].requests.length;
  const events: ToolLoopEvent[] = [];
  const logDir = tempDir("model-output-wire-");
  const runner = new PromptRunner({ model: models[api](), modelSettings: { maxRetries: 0 } })
    .withTools(new Desk())
    .withToolProviderDiscovery(binding === "handles" ? { binding, handleKey: "k".repeat(32) } : {})
    .withObserver((e) => events.push(e))
    .withRunLog(logDir);
  const outcome = await (how === "run" ? runner.run("go") : runner.stream("go").result).then(
    (run) => ({ run, error: undefined }),
    (error: unknown) => ({ run: undefined, error: error as Error }),
  );
  const read = mocks[api].requests.slice(before + 1).map((r) => errorText(r.toolResults.at(-1)?.text));
  const [logFile] = readdirSync(logDir).filter((f) => f.endsWith(".jsonl"));
  const log = readRunLog(readFileSync(path.join(logDir, logFile!), "utf8"));
  return { ...outcome, read, events, log };
}

/** What an error result says: ai 7 sends it to OpenAI as `{"error":"…"}`, ai 6 as the text. */
function errorText(text: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(text ?? "") as { error?: unknown };
    return typeof parsed.error === "string" ? parsed.error : text;
  } catch {
    return text;
  }
}

const call = (name: string, input: unknown): MockReply => ({ toolCalls: [{ name, input }] });
const done: { reply: MockReply } = { reply: { text: "done" } };
/**
 * The marked call's arguments (`{"MARK":1}`) replaced by the JSON text `raw`: inside a JSON string (OpenAI's
 * `arguments`, Anthropic's streamed `partial_json`), or as the value itself (Anthropic's whole `input`).
 */
const rawArguments =
  (raw: string): Rewrite =>
  (body) =>
    body
      .split(String.raw`{\"MARK\":1}`)
      .join(JSON.stringify(raw).slice(1, -1))
      .split('{"MARK":1}')
      .join(raw);
const warnings = (events: readonly ToolLoopEvent[]) =>
  events.flatMap((e) => (e.type === "ModelWarning" ? [e.message] : []));

describe.each<Binding>(["per-instance", "handles"])("W01 an integer past 2^53 (%s)", (binding) => {
  // JSON.parse reads 9007199254740993 as 9007199254740992: the tool ran on another number than the model sent.
  const refused =
    'Invalid arguments for "lookup": field "order" must be an integer from -9007199254740991 to ' +
    "9007199254740991: a larger one does not reach the tool exactly (a JavaScript number loses its last digits).";

  it.each<[Api, "run" | "stream"]>([
    ["responses", "run"],
    ["chat", "stream"],
    ["anthropic", "stream"],
  ])("%s %s: the model reads why, and the tool does not run", async (api, how) => {
    const { run, read } = await play(
      api,
      how,
      [{ reply: call("lookup", { MARK: 1 }), rewrite: rawArguments('{"order":9007199254740993}') }, done],
      binding,
    );
    expect(run?.result).toBe("done");
    expect(read).toEqual([refused]);
    expect(ran).toEqual([]);
  });

  it("on a discovered provider's tool too (a later step, on the provider spec directly)", async () => {
    const move = binding === "handles" ? "ticket_move" : "ticket_t1_move";
    const handle = (results: string[]) => /"(Ticket:t1~[^"]+)"/.exec(results.join())?.[1];
    const { read } = await play(
      "responses",
      "run",
      [
        { reply: call("openTickets", {}) },
        {
          reply: (results) =>
            call(move, binding === "handles" ? { handle: handle(results), MARK: 1 } : { MARK: 1 }),
          rewrite: (body) => body.replace(String.raw`\"MARK\":1`, String.raw`\"queue\":-9007199254740993`),
        },
        done,
      ],
      binding,
    );
    expect(read[1]).toMatch(
      /^Invalid arguments for "ticket_(t1_)?move": field "queue" must be an integer from -9007199254740991/,
    );
    expect(ran).toEqual([]);
  });

  it("a number field is not bounded: 6.02e23 and a safe integer reach the tool", async () => {
    const { read } = await play(
      "chat",
      "run",
      [
        {
          reply: call("lookup", { MARK: 1 }),
          rewrite: rawArguments('{"order":9007199254740991,"weight":6.02e23}'),
        },
        done,
      ],
      binding,
    );
    expect(read).toEqual(["order 9007199254740991"]);
    expect(ran).toEqual(["lookup 9007199254740991 6.02e+23"]);
  });
});

describe("W02 a response cut by the output token limit or a content filter, inside a call's arguments", () => {
  it("length (Chat, first step through the SDK): the model reads why the arguments are not JSON; the caller gets a warning", async () => {
    const { run, read, events, log } = await play("chat", "run", [
      {
        reply: call("lookup", { MARK: 1 }),
        rewrite: (body) =>
          rawArguments('{"order":')(body).replace('"finish_reason":"tool_calls"', '"finish_reason":"length"'),
      },
      done,
    ]);
    expect(run?.result).toBe("done");
    expect(read).toEqual([
      'Invalid arguments for "lookup": the arguments are not valid JSON: the response reached the model\'s output ' +
        'token limit (finish reason "length") before they were complete. Send a JSON object keyed by parameter name.',
    ]);
    const warning =
      "The model's response was cut short: the response reached the model's output token limit (finish reason \"length\"). " +
      "What it sent before is used as it is.";
    expect(warnings(events)).toEqual([warning]);
    expect(log.problems).toEqual([]);
    expect(
      log.records.filter((r) => r.type === "note").map((r) => (r as { message?: string }).message),
    ).toEqual([warning]);
  });

  it.each<Binding>(["per-instance", "handles"])(
    "content filter (Anthropic, streamed, a later step on the provider spec; %s)",
    async (binding) => {
      const { run, read, events } = await play(
        "anthropic",
        "stream",
        [
          { reply: call("openTickets", {}) },
          {
            reply: call("lookup", { MARK: 1 }),
            rewrite: (body) =>
              rawArguments('{"order":1')(body).replace('"stop_reason":"tool_use"', '"stop_reason":"refusal"'),
          },
          done,
        ],
        binding,
      );
      expect(run?.result).toBe("done");
      expect(read[1]).toBe(
        'Invalid arguments for "lookup": the arguments are not valid JSON: the provider\'s content filter stopped ' +
          'the response (finish reason "content-filter") before they were complete. Send a JSON object keyed by parameter name.',
      );
      expect(warnings(events)).toHaveLength(1);
    },
  );
});

describe("W03 an error event in the middle of a stream", () => {
  /** The events before the marked call, then the API's error event (the connection stays open). */
  const errorBefore =
    (event: string): Rewrite =>
    (body) => {
      const at = body.lastIndexOf("\n\n", body.indexOf("MARK")) + 2;
      return `${body.slice(0, at)}${event}\n\n${body.slice(at)}`;
    };
  it.each<[Api, string, string]>([
    [
      "responses",
      `event: error\ndata: ${JSON.stringify({ type: "error", code: "server_error", message: "The server had an error", param: null, sequence_number: 3 })}`,
      "The model call failed: The server had an error (server_error)",
    ],
    [
      "anthropic",
      `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}`,
      "The model call failed: Overloaded (overloaded_error)",
    ],
  ])(
    "%s: ModelCallError names the API's message (it read [object Object]), the run so far kept",
    async (api, event, message) => {
      const { error, log } = await play(api, "stream", [
        { reply: call("openTickets", {}) },
        { reply: call("lookup", { MARK: 1 }), rewrite: errorBefore(event) },
      ]);
      expect(error).toBeInstanceOf(ModelCallError);
      expect(error?.message).toBe(message);
      expect((error as ModelCallError).conversationHistory.map((m) => m.role)).toEqual([
        "user",
        "assistant",
        "tool",
      ]);
      expect(log.problems).toEqual([]);
      expect(log.records.at(-1)).toMatchObject({ type: "end", status: "failed" });
    },
  );
});

describe("W04 token counts that are not counts", () => {
  it.each<[Api, "run" | "stream", string, string]>([
    ["responses", "run", '"input_tokens":100', '"input_tokens":-5'],
    ["chat", "stream", '"prompt_tokens":100', '"prompt_tokens":1.5'],
  ])(
    "%s %s: left out of usage (not subtracted), with a warning; the run log agrees",
    async (api, how, from, to) => {
      const { run, events, log } = await play(api, how, [
        { reply: call("lookup", { order: 1 }), rewrite: (body) => body.replace(from, to) },
        done,
      ]);
      // the second response's 100 input tokens only: before, 95 (the -5 subtracted) or 101.5
      expect(run?.usage).toMatchObject({ inputTokens: 100, outputTokens: 14 });
      // Without its input tokens the call's usage is unknown: one warning says what was sent and that (C25)
      expect(warnings(events)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Model ".+" reported inputTokens as ${to.split(":")[1]!.replace(".", "\\.")} at step 1, which is not a count of tokens: ` +
              "usage counts that call's inputTokens as 0, so the run's usage is less than it spent ",
          ),
        ),
      ]);
      expect(log.problems).toEqual([]);
      expect(log.records.find((r) => r.type === "end")).toMatchObject({ usage: { inputTokens: 100 } });
    },
  );
});

describe("W01 in an answer, W03 from a strategy", () => {
  it("createObject: an integer field past 2^53 in the final answer is sent back for repair", async () => {
    script = [{ reply: { text: '{"order":9007199254740993}' } }, { reply: { text: '{"order":42}' } }];
    replies = fetches = 0;
    const before = mocks.chat.requests.length;
    const answer = await new PromptRunner({
      model: models.chat(),
      modelSettings: { maxRetries: 0 },
    }).createObject(
      { type: "object", properties: { order: { type: "integer" } }, required: ["order"] },
      "go",
    );
    expect(answer).toEqual({ order: 42 });
    const repair = JSON.stringify((mocks.chat.requests[before + 1] as unknown as { body: unknown }).body);
    expect(repair).toContain(
      'field \\"order\\" must be an integer from -9007199254740991 to 9007199254740991',
    );
  });

  it("a strategy that throws a plain object: StrategyError quotes it as JSON (it read [object Object])", async () => {
    script = [{ reply: call("lookup", { order: 1 }) }, done];
    replies = fetches = 0;
    const error = await new PromptRunner({ model: models.chat(), modelSettings: { maxRetries: 0 } })
      .withTools(new Desk())
      .withInjectionStrategy({
        evaluateToolResult: () => {
          throw { reason: "no quota left" };
        },
      })
      .run("go")
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(StrategyError);
    expect((error as Error).message).toBe(
      'An injection strategy failed after "lookup": {"reason":"no quota left"}',
    );
  });
});

describe("W05 made-up tools in the model's first message", () => {
  const unknown = (n: number): MockReply => ({
    toolCalls: Array.from({ length: n }, (_, i) => ({ name: `find_order_${i}`, input: {} })),
  });

  it.each<[Api, number]>([
    ["responses", 3],
    ["anthropic", 1000],
  ])(
    "%s, %i calls: each gets its unknown-tool result, the model answers after reading them",
    async (api, n) => {
      const { run, read } = await play(api, "stream", [{ reply: unknown(n) }, done]);
      expect(run?.result).toBe("done");
      const results = mocks[api].requests.at(-1)!.toolResults.map((r) => errorText(r.text));
      expect(results).toHaveLength(n);
      expect(read[0]).toBe(`Unknown tool "find_order_${n - 1}". Available tools: openTickets, lookup.`);
    },
  );

  it("a message of unknown calls after the model read them ends the run", async () => {
    const { error } = await play("chat", "run", [{ reply: unknown(3) }, { reply: unknown(1) }, done]);
    expect(error?.message).toBe(
      'The model called unknown tools 4 times in a row, last "find_order_0"; available: openTickets, lookup',
    );
  });
});

describe("W06 arguments that are JSON but no object, sent back to the provider", () => {
  it.each<[Api, "run" | "stream", string]>([
    ["anthropic", "run", "[1,2]"],
    ["anthropic", "stream", "null"],
    ["anthropic", "stream", '"order 1"'],
    ["responses", "run", "42"],
  ])(
    "%s %s %s: the model reads what was wrong; the next request carries the call with {}",
    async (api, how, raw) => {
      const { run, read, events } = await play(api, how, [
        { reply: call("openTickets", {}) },
        { reply: call("lookup", { MARK: 1 }), rewrite: rawArguments(raw) },
        done,
      ]);
      expect(run?.result).toBe("done");
      expect(read[1]).toMatch(
        /^Invalid arguments for "lookup": expected a JSON object keyed by parameter name, got /,
      );
      // what the provider was sent: the Messages API refuses a tool_use whose input is not an object
      const sent = JSON.stringify(mocks[api].requests.at(-1)) as string;
      expect(sent).toMatch(
        api === "anthropic" ? /"name":"lookup","input":\{\}/ : /"name":"lookup","arguments":"\{\}"/,
      );
      // what the model sent stays in the events (and so in the run log)
      const responded = events.filter((e) => e.type === "ModelResponded");
      expect(responded[1]).toMatchObject({
        toolCalls: [{ toolName: "lookup", input: JSON.parse(raw) as unknown }],
      });
    },
  );
});

describe("W07 call ids a provider would refuse to read back", () => {
  /** The ids of the calls (Anthropic `tool_use`, OpenAI `function_call`) the last request carried back. */
  const idsSent = (api: Api): string[] => {
    const body = (mocks[api].requests.at(-1) as unknown as { body: Record<string, unknown> }).body;
    const items = (api === "anthropic" ? body.messages : body.input) as { content?: unknown }[];
    const parts = items.flatMap((m) => (Array.isArray(m.content) ? (m.content as object[]) : [m]));
    return parts.flatMap((p) => {
      const part = p as { type?: string; id?: string; call_id?: string };
      if (part.type === "tool_use") return [part.id!];
      return part.type === "function_call" ? [part.call_id!] : [];
    });
  };
  const unique = (ids: (string | undefined)[]) => new Set(ids).size === ids.length;

  it.each<[Api, "run" | "stream"]>([
    ["anthropic", "run"],
    ["anthropic", "stream"],
  ])(
    "%s %s: two calls with one id in one message: one runs, the other is answered, each id its own",
    async (api, how) => {
      const { run, read } = await play(api, how, [
        {
          reply: {
            toolCalls: [
              { name: "lookup", input: { order: 1 } },
              { name: "lookup", input: { order: 2 } },
            ],
          },
          rewrite: (body) => body.replace(/(call|toolu)_(\d+)_1/g, "$1_$2_0"),
        },
        done,
      ]);
      expect(run?.result).toBe("done");
      expect(ran).toEqual(["lookup 1 "]);
      const results = mocks[api].requests.at(-1)!.toolResults.map((r) => errorText(r.text));
      expect(results[1]).toMatch(
        /^Not run: another call in this message already has the id "(call|toolu)_\d+_0"\.$/,
      );
      expect(read).toHaveLength(1);
      // the Anthropic Messages API refuses a request whose tool_use ids repeat (`tool_use ids must be unique`)
      const sent = idsSent(api);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(unique(api === "anthropic" ? sent : sent.filter((_, i) => i % 2 === 0))).toBe(true);
    },
  );

  it("ids another provider makes (`functions.lookup:0`, reused every turn): sent back in a form every API takes", async () => {
    const kimi = (body: string) => body.replace(/call_\d+_0/g, "functions.lookup:0");
    const { run } = await play("chat", "run", [
      { reply: call("lookup", { order: 1 }), rewrite: kimi },
      { reply: call("lookup", { order: 2 }), rewrite: kimi },
      done,
    ]);
    expect(run?.result).toBe("done");
    expect(ran).toEqual(["lookup 1 ", "lookup 2 "]);
    const body = (mocks.chat.requests.at(-1) as unknown as { body: { messages: Record<string, unknown>[] } })
      .body;
    const callIds = body.messages.flatMap((m) =>
      ((m.tool_calls as { id: string }[] | undefined) ?? []).map((c) => c.id),
    );
    const resultIds = body.messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : []));
    expect(callIds).toEqual(["functions_lookup_0", "functions_lookup_0_2"]);
    expect(resultIds).toEqual(callIds);
  });

  it("an id an earlier message used: a new call, run under an id of its own", async () => {
    const { run } = await play("anthropic", "stream", [
      { reply: call("lookup", { order: 1 }) },
      {
        reply: call("lookup", { order: 2 }),
        rewrite: (body) => body.replace(/toolu_(\d+)_0/g, (_m, n: string) => `toolu_${Number(n) - 1}_0`),
      },
      done,
    ]);
    expect(run?.result).toBe("done");
    expect(ran).toEqual(["lookup 1 ", "lookup 2 "]);
    const sent = idsSent("anthropic");
    expect(sent).toEqual([sent[0], `${sent[0]}_2`]);
  });
});

describe("W08 a made-up tool name no provider accepts", () => {
  it.each<[Api, "run" | "stream", string, string]>([
    ["chat", "run", "open/tickets", "invalid_name_open_tickets"],
    ["chat", "stream", "öpen tickets", "invalid_name__pen_tickets"],
    ["responses", "stream", "x".repeat(10_000), `invalid_name_${"x".repeat(51)}`],
    ["anthropic", "run", "lookup.v2", "invalid_name_lookup_v2"],
  ])(
    "%s %s (case %#): the model reads the name it sent; the next request carries a name the API accepts",
    async (api, how, name, sent) => {
      const { run, read, events } = await play(api, how, [{ reply: call(name, {}) }, done]);
      expect(run?.result).toBe("done");
      expect(read[0]).toMatch(/^Unknown tool "/);
      expect(read[0]).toContain(name.slice(0, 80));
      const body = JSON.stringify((mocks[api].requests.at(-1) as unknown as { body: unknown }).body);
      expect(body).toContain(`"name":"${sent}"`);
      expect(body).not.toContain(JSON.stringify(name).slice(0, 90));
      expect(events.find((e) => e.type === "ToolFailed")).toMatchObject({ toolName: name });
    },
  );
});

describe("docs/reliability.md", () => {
  it("states the behaviour of every W case", () => {
    const doc = readFileSync("docs/reliability.md", "utf8");
    for (const id of ["W01", "W02", "W03", "W04", "W05", "W06", "W07", "W08"])
      expect(doc, `${id} missing`).toContain(`| ${id} |`);
  });
});
