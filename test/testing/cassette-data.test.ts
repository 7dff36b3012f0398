// A file's bytes and a URL in a cassette: written as a snapshot's JSON writes them (one rule,
// src/loop/snapshot/json-data.ts: bytes base64, a URL its text), and a recorded file answer replays as the
// same bytes. A cycle or a value nested past 512 levels (a model of the caller's own) is refused by the
// same rule as a run's history, naming its place: not a stack overflow.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { PromptRunner } from "entity-tools";
import { ReplayLanguageModel, generateResult, recordModel } from "entity-tools/testing";
import { cassetteJson } from "../../src/testing/replay/cassette-json.js";
import { snapshotCopy } from "../../src/loop/snapshot/snapshot-copy.js";
import { NewestMockModel } from "../support/mock-model.js";
import { tempDir } from "../support/temp-dir.js";

const png = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);

describe("bytes and URLs in a cassette", () => {
  it("are written as a snapshot's JSON writes them: views, Buffers, ArrayBuffers, URLs and data: URLs", () => {
    const values = {
      bytes: png,
      view: png.subarray(2, 5), // its own bytes only, not its buffer's
      buffer: Buffer.from(png),
      arrayBuffer: png.slice().buffer, // was `{}` in a cassette: the bytes were lost
      url: new URL("https://images.example.com/chart.png"),
      dataUrl: new URL("data:image/png;base64,iVBORw0KGgo="),
    };
    const inSnapshot = JSON.parse(JSON.stringify(snapshotCopy(values))) as unknown;
    expect(cassetteJson(values)).toEqual(inSnapshot);
    expect(inSnapshot).toEqual({
      bytes: "iVBORw0KGgo=",
      view: "TkcN",
      buffer: "iVBORw0KGgo=",
      arrayBuffer: "iVBORw0KGgo=",
      url: "https://images.example.com/chart.png",
      dataUrl: "data:image/png;base64,iVBORw0KGgo=",
    });
  });

  it("a model's file answer given as bytes is recorded as base64 and replays as the same bytes", async () => {
    const file = path.join(tempDir("cassette-data-"), "file.json");
    // ai 7's models (spec V4) tag a file's data; ai 6's (V3) give the bytes themselves.
    const v3 = new NewestMockModel().specificationVersion === "v3";
    const model = new NewestMockModel({
      doGenerate: async () => {
        const result = generateResult({});
        const data = v3 ? png : { type: "data", data: png };
        return { ...result, content: [{ type: "file", mediaType: "image/png", data } as never] };
      },
    });
    const recorded = await generateText({ model: recordModel(model, file), prompt: "Draw it" });
    expect(recorded.files[0]?.uint8Array).toEqual(png);
    expect(readFileSync(file, "utf8")).toContain('"iVBORw0KGgo="');
    const replayed = await generateText({
      model: await ReplayLanguageModel.fromFile(file),
      prompt: "Draw it",
    });
    expect(replayed.files[0]?.uint8Array).toEqual(png);
  });
});

describe("a bigint in a model answer", () => {
  it("is recorded as its digits (the rule tool results and the run log follow) and replays as that text", async () => {
    const file = path.join(tempDir("cassette-data-"), "bigint.json");
    const model = new NewestMockModel({
      doGenerate: async () => ({
        ...generateResult({ text: "hi" }),
        providerMetadata: { acme: { requestId: 12345678901234567890n } } as never,
      }),
    });
    const recorded = await generateText({ model: recordModel(model, file), prompt: "q" });
    expect(recorded.text).toBe("hi");
    const cassette = JSON.parse(readFileSync(file, "utf8")) as {
      steps: { response: { providerMetadata?: unknown } }[];
    };
    const digits = { acme: { requestId: "12345678901234567890" } };
    expect(cassette.steps[0]?.response.providerMetadata).toEqual(digits);
    const replayed = await generateText({ model: await ReplayLanguageModel.fromFile(file), prompt: "q" });
    expect(replayed.providerMetadata).toEqual(digits);
  });
});

describe("a model answer a cassette cannot hold", () => {
  it("a cycle or 100 000 levels in its metadata: the run's model call fails naming the place; nothing is written", async () => {
    const dir = tempDir("cassette-data-");
    const self: Record<string, unknown> = { note: "x" };
    self.self = self;
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    for (const [name, metadata, what] of [
      ["cycle", { acme: self }, "providerMetadata.acme.self refers back to providerMetadata.acme (a cycle)"],
      [
        "deep",
        { acme: deep },
        "providerMetadata.acme.d.d.d.d.d.d.d.d.d.d… is nested more than 512 levels deep",
      ],
    ] as const) {
      const model = new NewestMockModel({
        doGenerate: async () => ({ ...generateResult({ text: "hi" }), providerMetadata: metadata as never }),
      });
      const file = path.join(dir, `${name}.json`);
      const error = await new PromptRunner({ model: recordModel(model, file) }).run("q").then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toBe(
        `The model call failed: recordModel cannot write the model's answer to the cassette: ${what}, ` +
          "which a cassette, plain JSON, cannot hold. The call was not recorded.",
      );
      expect(existsSync(file)).toBe(false);
    }
  });
});
