import type { LanguageModel } from "ai";
import type { ToolResultMediaTypes } from "../loop/results/media-types.js";

/**
 * What each known AI SDK provider sends of a tool result's media, as its converter in `@ai-sdk/*` maps the
 * content output (checked against `@ai-sdk/openai` 3/4 and `@ai-sdk/anthropic` 3/4):
 * - OpenAI Chat Completions: a tool message is text only (the SDK would send the parts as JSON, base64 and
 *   all), so nothing;
 * - OpenAI Responses: images (PNG, JPEG, WebP, GIF: what the API reads) as `input_image`, PDFs as `input_file`;
 * - Anthropic Messages: images (JPEG, PNG, GIF, WebP) as `image` blocks, PDFs as `document` blocks.
 * Keyed by the model's `provider` prefix; a provider not listed gets every part, and decides.
 */
const KNOWN: readonly (readonly [prefix: string, types: ToolResultMediaTypes])[] = [
  ["openai.chat", []],
  ["openai.completion", []],
  ["openai.responses", ["image/png", "image/jpeg", "image/webp", "image/gif", "application/pdf"]],
  ["anthropic.messages", ["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf"]],
];

/** The media `model` takes inside a tool result, when its provider is one we know (see {@link KNOWN}). */
export function providerMediaTypes(model: LanguageModel): ToolResultMediaTypes | undefined {
  const provider =
    typeof model === "object" && model !== null ? (model as { provider?: unknown }).provider : undefined;
  if (typeof provider !== "string") return undefined;
  return KNOWN.find(([prefix]) => provider === prefix || provider.startsWith(`${prefix}.`))?.[1];
}
