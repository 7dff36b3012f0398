// A tool whose result holds text, a picture and a PDF: what each backend takes of it, and how it says the rest.
import { defineTool, toolContent, toolFile, toolImage } from "entity-tools";
import { TINY_PNG } from "./tiny-png.js";

/** `chart`: "Monthly spend:", a PNG and a PDF, in that order. */
export const spendChartWithPdf = defineTool({
  name: "chart",
  description: "The spend chart",
  execute: () =>
    toolContent(
      "Monthly spend:",
      toolImage(TINY_PNG, "image/png"),
      toolFile(Buffer.from("%PDF"), "application/pdf"),
    ),
});
