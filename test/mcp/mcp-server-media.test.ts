import { describe, expect, it } from "vitest";
import { defineTool, toolContent, toolFile, toolImage } from "entity-tools";
import { modernEndpoint } from "../support/mcp-v2.js";
import { TINY_PNG, TINY_PNG_BASE64 } from "../support/tiny-png.js";

const PDF = Buffer.from("%PDF-1.4 tiny");

const tools = [
  defineTool({
    name: "chart",
    description: "A chart",
    execute: () => toolContent("Monthly spend:", toolImage(TINY_PNG, "image/png")),
  }),
  defineTool({
    name: "invoice",
    description: "The invoice as a PDF",
    execute: () => toolFile(PDF, "application/pdf", { filename: "invoice.pdf" }),
  }),
  defineTool({
    name: "linked",
    description: "A picture by URL",
    execute: () => toolImage(new URL("https://example.test/chart.png"), "image/png"),
  }),
];

describe.each(["2026-07-28", "2025-11-25"] as const)(
  "our MCP server on %s: media results as MCP blocks",
  (revision) => {
    const endpoint = modernEndpoint({ name: "shop", version: "1.0.0", tools });

    it("an image result is an MCP image block after its text", async () => {
      const client = await endpoint.connect({ revision });
      const result = await client.callTool({ name: "chart", arguments: {} });
      expect(result.content).toEqual([
        { type: "text", text: "Monthly spend:" },
        { type: "image", data: TINY_PNG_BASE64, mimeType: "image/png" },
      ]);
      expect(result.isError).toBe(false);
      await client.close();
    });

    it("a file result is an embedded resource (blob); media by URL is a resource link", async () => {
      const client = await endpoint.connect({ revision });
      const invoice = await client.callTool({ name: "invoice", arguments: {} });
      expect(invoice.content).toEqual([
        {
          type: "resource",
          resource: {
            uri: "entity-tools:result/invoice.pdf",
            mimeType: "application/pdf",
            blob: PDF.toString("base64"),
          },
        },
      ]);
      const linked = await client.callTool({ name: "linked", arguments: {} });
      expect(linked.content).toEqual([
        {
          type: "resource_link",
          uri: "https://example.test/chart.png",
          name: "image-1",
          mimeType: "image/png",
        },
      ]);
      await client.close();
    });

    it("maxResultMediaBytes: a picture past it is described in text, not sent", async () => {
      const small = modernEndpoint({ name: "shop", version: "1.0.0", tools, maxResultMediaBytes: 10 });
      const client = await small.connect({ revision });
      const result = await client.callTool({ name: "chart", arguments: {} });
      expect(result.content).toEqual([
        {
          type: "text",
          text: `Monthly spend:\n[image image/png] (not shown: ${TINY_PNG.length} bytes, over the limit of 10 bytes for a result's media)`,
        },
      ]);
      await client.close();
    });
  },
);
