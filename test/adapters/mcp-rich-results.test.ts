// The official MCP reference servers (npm `@modelcontextprotocol/server-everything` and `server-filesystem`),
// started over stdio, through the real `@ai-sdk/openai` and `@ai-sdk/anthropic` providers against local wire
// mocks: what their images, resource links, embedded resources and task-only tools become for the model.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PromptRunner, ToolLoopAbortedError, type ToolLoopEvent } from "entity-tools";
import type { McpClientLike } from "../../src/adapters/mcp-client-source.js";
import { startAnthropicMessagesMock } from "../../src/testing/anthropic-messages-mock.js";
import { startOpenAiMock } from "../support/openai-mocks.js";
import { TINY_PNG, TINY_PNG_BASE64 } from "../support/tiny-png.js";
import { tempDir } from "../support/temp-dir.js";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = path.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

const closers: (() => Promise<unknown>)[] = [];
let everything: Client;
let filesystem: Client;
let pictures: string;

beforeAll(async () => {
  pictures = tempDir("mcp-rich-");
  writeFileSync(path.join(pictures, "chart.png"), TINY_PNG);
  everything = await connect([EVERYTHING, "stdio"]);
  filesystem = await connect([FILESYSTEM, pictures]);
}, 60_000);
afterAll(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" }));
  closers.push(() => client.close());
  return client;
}

/** What one provider's request carries as a tool's result, read back in a provider-neutral form. */
interface ReadBack {
  /** Every base64 image in the tool result, as the provider's image input. */
  readonly images: string[];
  /** All the text of the tool result. */
  readonly text: string;
  /** The tools offered in the first request. */
  readonly offered: string[];
}

type Provider = "openai-responses" | "anthropic";

/** One run: the model calls `toolName` with `input` once, then answers; returns what it read. */
async function callThrough(
  provider: Provider,
  client: McpClientLike,
  toolName: string,
  input: object,
  events: ToolLoopEvent[] = [],
): Promise<ReadBack> {
  if (provider === "openai-responses") {
    const mock = await startOpenAiMock("responses", [
      { toolCalls: [{ name: toolName, input: input }] },
      { text: "done" },
    ]);
    try {
      const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" });
      await new PromptRunner({ model: openai.responses("gpt-test"), modelSettings: { maxRetries: 0 } })
        .withMcpClient(client)
        .withToolTimeout(30_000)
        .withObserver((e) => events.push(e))
        .run("go");
      const items = mock.requests[1]!.body.input as { type: string; output?: unknown }[];
      const output = items.find((i) => i.type === "function_call_output")!.output;
      const parts = (typeof output === "string" ? [{ type: "input_text", text: output }] : output) as {
        type: string;
        text?: string;
        image_url?: string;
      }[];
      return {
        images: parts.flatMap((p) =>
          p.type === "input_image" ? [p.image_url!.replace(/^data:image\/png;base64,/, "")] : [],
        ),
        text: parts.map((p) => p.text ?? "").join("\n"),
        offered: (mock.requests[0]!.body.tools as readonly { name: string }[]).map((t) => t.name),
      };
    } finally {
      await mock.close();
    }
  }
  const mock = await startAnthropicMessagesMock((request) =>
    request.toolResults.length === 0 ? { toolCalls: [{ name: toolName, input }] } : { text: "done" },
  );
  try {
    const anthropic = createAnthropic({ baseURL: `${mock.baseURL}/v1`, apiKey: "test-key" });
    const stream = new PromptRunner({
      model: anthropic("claude-sonnet-4-5"),
      modelSettings: { maxRetries: 0 },
    })
      .withMcpClient(client)
      .withToolTimeout(30_000)
      .withObserver((e) => events.push(e))
      .stream("go");
    await stream.result;
    const last = mock.requests[1]!.body.messages.at(-1)!.content as { type: string; content?: unknown }[];
    const result = last.find((b) => b.type === "tool_result")!.content;
    const blocks = (typeof result === "string" ? [{ type: "text", text: result }] : result) as {
      type: string;
      text?: string;
      source?: { type: string; media_type: string; data: string };
    }[];
    return {
      images: blocks.flatMap((b) =>
        b.type === "image" && b.source?.media_type === "image/png" ? [b.source.data] : [],
      ),
      text: blocks.map((b) => b.text ?? "").join("\n"),
      offered: mock.requests[0]!.offeredTools.slice(),
    };
  } finally {
    await mock.close();
  }
}

/** A tool's result straight from the server, to compare with what the model read. */
async function direct(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return result.content as {
    type: string;
    data?: string;
    text?: string;
    uri?: string;
    name?: string;
    mimeType?: string;
    resource?: { uri: string; text?: string };
  }[];
}

describe.each<Provider>(["openai-responses", "anthropic"])("official MCP servers through %s", (provider) => {
  it("everything's get-tiny-image: the picture is the provider's image input in the tool result", async () => {
    const image = (await direct(everything, "get-tiny-image", {})).find((b) => b.type === "image")!;
    const seen = await callThrough(provider, everything, "get-tiny-image", {});
    expect(seen.images).toEqual([image.data]);
    expect(seen.text).not.toContain("[image content]");
  }, 60_000);

  it("everything's get-resource-links: each link's name, URI and media type are in the text the model reads", async () => {
    const links = (await direct(everything, "get-resource-links", { count: 2 })).filter(
      (b) => b.type === "resource_link",
    );
    expect(links).toHaveLength(2);
    const seen = await callThrough(provider, everything, "get-resource-links", { count: 2 });
    for (const link of links) {
      expect(seen.text).toContain(`<${link.uri}>`);
      expect(seen.text).toContain(link.name);
      expect(seen.text).toContain(link.mimeType);
    }
  }, 60_000);

  it("everything's get-resource-reference: the embedded resource's text is in what the model reads", async () => {
    const args = { resourceType: "Text", resourceId: 1 };
    const embedded = (await direct(everything, "get-resource-reference", args)).find(
      (b) => b.type === "resource",
    )!;
    expect(embedded.resource!.text).toBeTruthy();
    const seen = await callThrough(provider, everything, "get-resource-reference", args);
    // The server stamps the text with the time it made it: compare what comes before the stamp.
    expect(seen.text).toContain(embedded.resource!.text!.replace(/ created at .*$/, " created at "));
    expect(seen.text).toContain(embedded.resource!.uri);
  }, 60_000);

  it("filesystem's read_media_file on a PNG: the picture is the provider's image input", async () => {
    const seen = await callThrough(provider, filesystem, "read_media_file", {
      path: path.join(pictures, "chart.png"),
    });
    expect(seen.images).toEqual([TINY_PNG_BASE64]);
  }, 60_000);
});

describe("a task-required tool (everything's simulate-research-query, execution.taskSupport: required)", () => {
  it("runs as an MCP task through the v1 client's task API and its report reaches the model", async () => {
    const events: ToolLoopEvent[] = [];
    const seen = await callThrough(
      "openai-responses",
      everything,
      "simulate-research-query",
      { topic: "tides" },
      events,
    );
    expect(seen.offered).toContain("simulate-research-query");
    expect(seen.text).toContain("tides");
    expect(seen.text).not.toMatch(/requires task-based execution/i);
    expect(events.filter((e) => e.type === "ToolFailed")).toEqual([]);
  }, 60_000);

  it("the run's abort stops it: the run rejects, and the task is cancelled on the server", async () => {
    const client = await connect([EVERYTHING, "stdio"]);
    const mock = await startOpenAiMock("responses", [
      { toolCalls: [{ name: "simulate-research-query", input: { topic: "tides" } }] },
      { text: "done" },
    ]);
    closers.push(() => mock.close());
    const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" });
    const controller = new AbortController();
    const running = new PromptRunner({
      model: openai.responses("gpt-test"),
      modelSettings: { maxRetries: 0 },
    })
      .withMcpClient(client)
      .run("go", { signal: controller.signal });
    let taskId: string | undefined;
    await vi.waitFor(
      async () => {
        const { tasks } = await client.experimental.tasks.listTasks();
        taskId = tasks.find((t) => t.status === "working")?.taskId;
        expect(taskId).toBeDefined();
      },
      { timeout: 30_000, interval: 20 },
    );
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(ToolLoopAbortedError);
    await vi.waitFor(
      async () => expect((await client.experimental.tasks.getTask(taskId!)).status).toBe("cancelled"),
      { timeout: 30_000, interval: 50 },
    );
  }, 60_000);

  it("is not offered through a client without a task API (SDK v2), and an event says why", async () => {
    const client = new ClientV2({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioV2({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }),
    );
    closers.push(() => client.close());
    const events: ToolLoopEvent[] = [];
    const seen = await callThrough(
      "openai-responses",
      client as unknown as McpClientLike,
      "get-sum",
      { a: 1, b: 2 },
      events,
    );
    expect(seen.offered).toContain("get-sum");
    expect(seen.offered).not.toContain("simulate-research-query");
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "SourceToolSkipped",
        toolName: "simulate-research-query",
        reason: expect.stringContaining('execution.taskSupport: "required"'),
      }),
    );
  }, 60_000);
});
