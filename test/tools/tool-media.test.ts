import { describe, expect, it } from "vitest";
import { isToolContent, toolAudio, toolContent, toolFile, toolImage } from "entity-tools";
import { TINY_PNG, TINY_PNG_BASE64 } from "../support/tiny-png.js";

describe("tool result helpers", () => {
  it("take bytes as a Uint8Array, a Buffer, an ArrayBuffer or base64 text, and a URL as a link", () => {
    const view = new Uint8Array(TINY_PNG);
    const sliced = new Uint8Array([0, ...TINY_PNG, 0]).subarray(1, TINY_PNG.length + 1);
    for (const source of [TINY_PNG, view, view.buffer, sliced, TINY_PNG_BASE64])
      expect(toolImage(source, "image/png").items).toEqual([
        { type: "image", mediaType: "image/png", data: TINY_PNG_BASE64 },
      ]);
    expect(toolImage(new URL("https://example.test/a.png"), "image/png").items).toEqual([
      { type: "image", mediaType: "image/png", url: "https://example.test/a.png" },
    ]);
    expect(toolFile(TINY_PNG, "application/pdf", { filename: "a.pdf" }).items).toEqual([
      { type: "file", mediaType: "application/pdf", data: TINY_PNG_BASE64, filename: "a.pdf" },
    ]);
  });

  it("refuse a media type that is not one, or not of their kind, naming it", () => {
    expect(() => toolImage(TINY_PNG, "png")).toThrow('"png" is not a media type');
    expect(() => toolImage(TINY_PNG, "audio/wav")).toThrow('"audio/wav" is not an image media type');
    expect(() => toolAudio(TINY_PNG, "image/png")).toThrow('"image/png" is not an audio media type');
  });

  it("toolContent keeps the order: text, parts of other contents, and values", () => {
    const content = toolContent("a", toolAudio(TINY_PNG, "audio/wav"), { n: 1 });
    expect(isToolContent(content)).toBe(true);
    expect(content.items.map((i) => i.type)).toEqual(["text", "audio", "value"]);
    expect(content.values).toEqual([{ n: 1 }]);
  });
});
