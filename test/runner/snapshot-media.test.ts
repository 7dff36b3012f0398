// Images and files in the AI SDK's message form (by URL, as bytes) through every path a snapshot takes: a
// run's snapshot, its JSON, a run paused for approval and resumed, a history too deep for a recursive copy.
// What a user notices: the resumed run's model is sent the image's URL (ai 6: the file part's `data`; ai 7:
// its `{ type: "url", url }`) or its bytes, and the run does not fail as it ends or resumes.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  beginConversationTurn,
  defineTool,
  PromptRunner,
  type ModelAdapter,
  type RunSnapshot,
} from "entity-tools";
import { generateResult, InMemoryConversationStore, type ScriptedTurn } from "entity-tools/testing";
import { NewestMockModel } from "../support/mock-model.js";

const url = "https://images.example.com/chart.png";

/** A model that reads https images itself (the SDK does not download them) and plays `turns`. */
function imageModel(...turns: ScriptedTurn[]) {
  let index = 0;
  return new NewestMockModel({
    supportedUrls: { "image/*": [/^https:\/\//] },
    doGenerate: async () => generateResult(turns[index++] ?? { text: "no more turns" }),
  });
}

/** Every `URL` object in what the model was sent at call `index`, as text (a string is no URL to it). */
function urlsSentAt(model: ReturnType<typeof imageModel>, index: number): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (value instanceof URL) found.push(value.href);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk((model.doGenerateCalls[index] as LanguageModelV3CallOptions | undefined)?.prompt);
  return found;
}

const publish = defineTool<{ title: string }, string>({
  name: "publish",
  description: "Publish the chart",
  needsApproval: true,
  inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
  execute: ({ title }) => `published ${title}`,
});

const prompt = (extra: Partial<ModelMessage> = {}): ModelMessage[] => [
  {
    role: "user",
    content: [
      { type: "text", text: "Publish this chart" },
      { type: "image", image: new URL(url) },
    ],
    ...extra,
  } as ModelMessage,
];

/** The bytes of every file part the model was sent at call `index`, as base64 (ai 7 tags them `data`). */
function bytesSentAt(model: ReturnType<typeof imageModel>, index: number): string[] {
  const prompt = (model.doGenerateCalls[index] as LanguageModelV3CallOptions | undefined)?.prompt ?? [];
  return prompt.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.flatMap((part) => {
          if (part.type !== "file" || part.data instanceof URL) return [];
          const tagged = part.data as unknown as { type?: string; data?: unknown };
          if (tagged.type === "url") return [];
          const data = tagged.type === "data" ? tagged.data : part.data;
          return [typeof data === "string" ? data : Buffer.from(data as Uint8Array).toString("base64")];
        }),
  );
}

const asJson = (snapshot: RunSnapshot): RunSnapshot => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;

describe("images and files in a snapshot's history", () => {
  it("reaches the model of a run paused for approval and resumed, from the snapshot itself and from its JSON", async () => {
    const paused = await new PromptRunner({
      model: imageModel({ toolCalls: [{ toolName: "publish", input: { title: "Q3" } }] }),
    })
      .withTools(publish)
      .run(prompt());
    expect(paused.status).toBe("awaiting-approval");
    const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true } };
    for (const snapshot of [paused.snapshot, asJson(paused.snapshot)]) {
      const model = imageModel({ text: "published" });
      const run = await new PromptRunner({ model }).withTools(publish).resume(snapshot, { approvals });
      expect(run.result).toBe("published");
      expect(urlsSentAt(model, 0)).toEqual([url]);
    }
    // The caller's snapshot is not changed by the resumes: its image is still the URL.
    const image = (paused.snapshot.history[0]!.content as { image?: unknown }[])[1]!.image;
    expect(image).toBeInstanceOf(URL);
  });

  it("is kept in the snapshot of a history nested deeper than the copy's walk, and reaches a continued run's model", async () => {
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 300; i++) deep = { next: deep };
    const run = await new PromptRunner({ model: imageModel({ text: "a chart" }) }).run(
      prompt({ providerOptions: { other: { deep } } } as Partial<ModelMessage>),
    );
    expect(run.result).toBe("a chart");
    const image = (run.snapshot.history[0]!.content as { image?: unknown }[])[1]!.image;
    expect(String(image)).toBe(url);
    const model = imageModel({ text: "still a chart" });
    const next = await new PromptRunner({ model }).run("And now?", { continueFrom: asJson(run.snapshot) });
    expect(next.result).toBe("still a chart");
    expect(urlsSentAt(model, 0)).toEqual([url]);
  });

  // A custom adapter may hand the run a call whose input holds a URL (`ModelToolCall.input` is whatever
  // it parsed): the person deciding, the paused snapshot and the resumed call all see the URL.
  it("is kept in a waiting call's input: in what the person decides on, in the snapshot, and in the call run on resume", async () => {
    const seen: unknown[] = [];
    const share = defineTool<{ link: unknown }, string>({
      name: "share",
      description: "Share a link",
      needsApproval: true,
      inputSchema: { type: "object", properties: { link: {} }, required: ["link"] },
      execute: ({ link }) => {
        seen.push(link);
        return `shared ${String(link)}`;
      },
    });
    const input = { link: new URL(url) };
    const adapter = (first: boolean): ModelAdapter => ({
      supportsDynamicTools: true,
      step: async () =>
        first
          ? {
              responseMessages: [
                {
                  role: "assistant",
                  content: [{ type: "tool-call", toolCallId: "c1", toolName: "share", input }],
                },
              ],
              toolCalls: [{ toolCallId: "c1", toolName: "share", input }],
              text: "",
            }
          : { responseMessages: [{ role: "assistant", content: "done" }], toolCalls: [], text: "done" },
    });
    const paused = await new PromptRunner({ adapter: adapter(true) }).withTools(share).run("Share it");
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.pendingApprovals[0]!.input).toEqual({ link: new URL(url) });
    expect((paused.snapshot.paused!.calls[0]!.input as { link: unknown }).link).toBeInstanceOf(URL);
    const run = await new PromptRunner({ adapter: adapter(false) })
      .withTools(share)
      .resume(paused.snapshot, { approvals: { c1: { approved: true } } });
    expect(run.result).toBe("done");
    expect(seen).toEqual([new URL(url)]);
    expect(String(seen[0])).toBe(url);
  });

  // JSON wrote a Uint8Array as {"0":1,…} (ai 6 refused the prompt, ai 7 sent it as a provider reference), a
  // Buffer as {"type":"Buffer",…} and an ArrayBuffer as {}: the snapshot's bytes write themselves as base64.
  // Signed: the signature covers the JSON form, so the object and its JSON verify alike.
  it("keeps a file's bytes (Uint8Array, Buffer, ArrayBuffer) through the snapshot's JSON, signed", async () => {
    const key = "snapshot-media-test-key-0123456789";
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3];
    const parts = [
      { type: "file", data: new Uint8Array(png), mediaType: "image/png" },
      { type: "file", data: Buffer.from(png), mediaType: "image/png" },
      { type: "image", image: new Uint8Array(png).buffer, mediaType: "image/png" },
    ];
    const first = imageModel({ text: "three images" });
    const run = await new PromptRunner({ model: first })
      .withSnapshotKey(key)
      .run([{ role: "user", content: parts } as ModelMessage]);
    const base64 = Buffer.from(png).toString("base64");
    expect(bytesSentAt(first, 0)).toEqual([base64, base64, base64]);
    for (const snapshot of [run.snapshot, asJson(run.snapshot)]) {
      const model = imageModel({ text: "still three" });
      const next = await new PromptRunner({ model })
        .withSnapshotKey(key)
        .run("And now?", { continueFrom: snapshot });
      expect(next.result).toBe("still three");
      expect(bytesSentAt(model, 0)).toEqual([base64, base64, base64]);
    }
  });

  it("reaches the model of a paused run kept in a conversation store and resumed in the next turn", async () => {
    const store = new InMemoryConversationStore();
    const first = await beginConversationTurn(store, "chart-1");
    const paused = await new PromptRunner({
      model: imageModel({ toolCalls: [{ toolName: "publish", input: { title: "Q3" } }] }),
    })
      .withTools(publish)
      .run([
        {
          role: "user",
          content: [
            { type: "image", image: new URL(url) },
            { type: "file", data: new Uint8Array([1, 2, 3]), mediaType: "image/png" },
          ],
        },
      ]);
    await first.save(paused.snapshot);
    const next = await beginConversationTurn(store, "chart-1");
    const model = imageModel({ text: "published" });
    const run = await new PromptRunner({ model }).withTools(publish).resume(next.snapshot!, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    await next.save(run.snapshot);
    expect(run.result).toBe("published");
    expect([urlsSentAt(model, 0), bytesSentAt(model, 0)]).toEqual([[url], ["AQID"]]);
  });
});
