import { describe, expect, it } from "vitest";
import { mcpResultContent } from "../../src/adapters/mcp-result-content.js";
import { ToolContent } from "entity-tools";

const items = (value: unknown) => (value as ToolContent).items;

describe("an MCP tool result as what the model reads", () => {
  it("only text stays text (other blocks named), and no content falls back to the structured content", () => {
    expect(mcpResultContent([{ type: "text", text: "a" }, { type: "weird" }], undefined)).toBe(
      "a\n[weird content]",
    );
    expect(mcpResultContent([], { total: 3 })).toBe('{"total":3}');
  });

  it("audio passes through; a blob resource becomes an image or a file part by its media type, headed by its URI", () => {
    const content = mcpResultContent(
      [
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "demo://a.png", mimeType: "image/png", blob: "BBBB" } },
        {
          type: "resource",
          resource: { uri: "demo://dir/data.bin", mimeType: "application/octet-stream", blob: "CCCC" },
        },
      ],
      undefined,
    );
    expect(content).toBeInstanceOf(ToolContent);
    expect(items(content)).toEqual([
      { type: "audio", data: "AAAA", mediaType: "audio/wav" },
      { type: "text", text: "[resource <demo://a.png> image/png]" },
      { type: "image", data: "BBBB", mediaType: "image/png" },
      { type: "text", text: "[resource <demo://dir/data.bin> application/octet-stream]" },
      { type: "file", data: "CCCC", mediaType: "application/octet-stream", filename: "data.bin" },
    ]);
  });

  it("a resource link keeps its title or name, URI, media type and description", () => {
    expect(
      mcpResultContent(
        [
          {
            type: "resource_link",
            uri: "file:///r.txt",
            name: "r",
            title: "Report",
            mimeType: "text/plain",
            description: "Q3",
          },
        ],
        undefined,
      ),
    ).toBe("[resource link: Report (r) <file:///r.txt> text/plain: Q3]");
  });
});
