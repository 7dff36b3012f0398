// The snapshot's copy of a run's history: what structuredClone gave (the snapshot format's contract),
// made by a faster walk for plain data, with a URL kept a URL (structuredClone cannot).
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "ai";
import { PromptRunner } from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { snapshotCopy, watchedCopy } from "../../../src/loop/snapshot/snapshot-copy.js";

const history: ModelMessage[] = [
  { role: "user", content: [{ type: "file", data: new Uint8Array([1, 2, 3]), mediaType: "image/png" }] },
  {
    role: "assistant",
    content: [
      {
        type: "tool-call",
        toolCallId: "c1",
        toolName: "find",
        input: JSON.parse('{"q":"x","__proto__":{"admin":true},"at":[1,{"n":null}]}') as unknown,
      },
    ],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "find",
        output: { type: "json", value: { rows: [] } },
      },
    ],
  },
];

describe("snapshotCopy", () => {
  it("gives what structuredClone gives, sharing nothing with the history", () => {
    const copy = snapshotCopy(history);
    expect(copy).toStrictEqual(structuredClone(history));
    // The bytes write themselves in JSON as base64 (see snapshot-media.test.ts).
    expect(JSON.stringify(copy[0])).toContain('"data":"AQID"');
    const input = (copy[1]!.content as { input: Record<string, unknown> }[])[0]!.input;
    expect(Object.keys(input)).toEqual(["q", "__proto__", "at"]); // an own key, not the prototype
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    const bytes = (copy[0]!.content as { data: Uint8Array }[])[0]!.data;
    expect(bytes).toBeInstanceOf(Uint8Array);
    bytes[0] = 9;
    (copy[2]!.content as unknown as { output: { value: { rows: unknown[] } } }[])[0]!.output.value.rows.push(
      1,
    );
    expect([...(history[0]!.content as { data: Uint8Array }[])[0]!.data]).toEqual([1, 2, 3]);
    expect(JSON.stringify(history[2])).toContain('"rows":[]');
  });

  // The walk keeps no stack of its own calls: it copied up to 200 levels and left a deeper history, or one
  // with a cycle, to structuredClone whole, which broke its URLs again (Node 20: `{}`, Node 22: a throw).
  it("copies a value nested 100 000 levels deep with a URL at its bottom, every level a copy", () => {
    let deep: Record<string, unknown> = { image: new URL("https://images.example.com/deep.png") };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    let copied = snapshotCopy(deep);
    let levels = 0;
    let shared = 0;
    for (; copied.next !== undefined; levels++) {
      if (copied === deep) shared++;
      [copied, deep] = [copied.next as Record<string, unknown>, deep.next as Record<string, unknown>];
    }
    expect([levels, shared]).toEqual([100_000, 0]);
    expect(copied.image).toBeInstanceOf(URL);
    expect(copied.image).not.toBe(deep.image);
    expect(String(copied.image)).toBe("https://images.example.com/deep.png");
  });

  it("copies a cycle as a cycle and a part met twice once, as structuredClone does, URLs as URLs", () => {
    const image = { type: "image", image: new URL("https://images.example.com/a.png") };
    const cyclic: Record<string, unknown> = { name: "a", parts: [image, image] };
    cyclic.self = cyclic;
    const copy = snapshotCopy(cyclic);
    expect(copy).not.toBe(cyclic);
    expect(copy.self).toBe(copy);
    const [first, second] = copy.parts as (typeof image)[];
    expect(first).toBe(second);
    expect(first).not.toBe(image);
    expect(first!.image).toBeInstanceOf(URL);
    expect(first!.image.href).toBe("https://images.example.com/a.png");
  });

  // What makes a written snapshot cost its copy and no more: only a history its walk finds something odd
  // in is looked into again (`plain-json-history.ts`).
  it("says whether the value may not be plain JSON: a plain history surely is, with bytes, a URL and a date", () => {
    const plain = [
      ...history,
      { role: "user", content: [{ type: "image", image: new URL("https://a.example") }] },
    ];
    expect(watchedCopy([...plain, { at: new Date(0) }, 1, "x", null])).toMatchObject({ suspect: false });
    class Note {
      toJSON(): string {
        return "n";
      }
    }
    const shared = { n: 1 };
    const deep = (levels: number) => {
      let value: unknown = {};
      for (let i = 0; i < levels; i++) value = { d: value };
      return value;
    };
    for (const odd of [{ n: 1n }, { a: shared, b: shared }, deep(510), new (class Budget {})(), new Note()])
      expect(watchedCopy([...plain, odd]).suspect).toBe(true);
    expect(watchedCopy([...plain, deep(400)]).suspect).toBe(false);
    expect(watchedCopy(plain).copy).toStrictEqual(snapshotCopy(plain));
  });

  it("refuses a function as structuredClone does", () => {
    expect(() => snapshotCopy({ f: () => 1 })).toThrow(expect.objectContaining({ name: "DataCloneError" }));
  });

  // A prompt with an image by URL, as the AI SDK takes one: its run's snapshot keeps the URL. On Node 20
  // structuredClone made it `{}` (a resumed run sent the model an empty image); on Node 22 it throws, and
  // every such run failed when it ended.
  it("keeps an image given by URL in a run's snapshot", async () => {
    const url = "https://images.example.com/chart.png";
    const run = await new PromptRunner({
      model: {
        specificationVersion: "v3",
        provider: "reader.chat",
        modelId: "reader",
        supportedUrls: { "image/*": [/^https:\/\//] },
        doGenerate: async () => generateResult({ text: "a chart" }),
        doStream: () => Promise.reject(new Error("not streamed here")),
      },
    }).run([{ role: "user", content: [{ type: "image", image: new URL(url) }] }]);
    expect(run.result).toBe("a chart");
    const image = (run.snapshot.history[0]!.content as { image: unknown }[])[0]!.image;
    expect(image).toBeInstanceOf(URL);
    expect(String(image)).toBe(url);
    expect(JSON.stringify(run.snapshot)).toContain(`"image":"${url}"`);
  });
});
