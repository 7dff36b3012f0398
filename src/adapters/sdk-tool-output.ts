import type { ModelMessage } from "ai";

/** ai 7's mapping of a tool result's output (`ai/internal`), as `convertToLanguageModelPrompt` applies it. */
export type MapToolResultOutput = (options: {
  output: ContentOutput;
  warnings: { type?: unknown }[];
  downloadedAssets: Record<string, never>;
}) => ContentOutput;

interface ContentOutput {
  readonly type: string;
  readonly value: readonly { readonly type: string; readonly mediaType?: unknown; readonly data?: unknown }[];
}

/** The content items our tool results use (`contentItemOf`), which ai 6 knows and ai 7 deprecates. */
const OLD_ITEMS = new Set(["image-data", "image-url", "file-data", "file-url"]);

/**
 * A step's new messages as the installed AI SDK takes them without a deprecation warning: on ai 7, the
 * media items of tool outputs (`image-data`, `image-url`, `file-data`, `file-url`) as its `file` items,
 * made by the SDK's own mapping, so its conversion (and the provider's request) is what it made of the
 * old items. The history and snapshots keep the old items, which ai 6 and ai 7 both read. On ai 6, or
 * when the SDK's mapping does not behave as expected, the messages are handed on as they are. Only tool
 * messages holding such items are copied; without any, `messages` itself is returned.
 */
export function sdkMessages(messages: ModelMessage[], map: MapToolResultOutput | undefined): ModelMessage[] {
  if (!map) return messages;
  let copy: ModelMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "tool" || !message.content.some(holdsOldItems)) continue;
    copy ??= messages.slice();
    copy[i] = {
      ...message,
      content: message.content.map((part) =>
        holdsOldItems(part)
          ? { ...part, output: mapped((part as { output: ContentOutput }).output, map) }
          : part,
      ),
    } as ModelMessage;
  }
  return copy ?? messages;
}

function holdsOldItems(part: { type: string; output?: unknown }): boolean {
  if (part.type !== "tool-result") return false;
  const output = part.output as Partial<ContentOutput> | undefined;
  return output?.type === "content" && output.value!.some((item) => OLD_ITEMS.has(item.type));
}

/**
 * `output` with its old items in the SDK's `file` form. The SDK maps a `file` item again when it converts
 * the prompt, and that mapping reads an inline image's media type from its bytes (the old items' did
 * not): an item whose media type would then change, or which it would refuse, stays as it was, so the
 * provider receives the request it received before.
 */
function mapped(output: ContentOutput, map: MapToolResultOutput): ContentOutput {
  try {
    const once = map({ output, warnings: [], downloadedAssets: {} });
    const twice = map({ output: once, warnings: [], downloadedAssets: {} });
    return {
      ...output,
      value: output.value.map((item, i) => {
        const file = once.value[i]!;
        const stable = file.type === "file" && twice.value[i]!.mediaType === file.mediaType;
        return OLD_ITEMS.has(item.type) && stable ? file : item;
      }),
    };
  } catch {
    return output;
  }
}

/**
 * ai 7's `mapToolResultOutput` (from `ai/internal`, loaded and checked with the SDK's other internals:
 * `sdk-internals.ts`), if it does what is expected: an `image-data` item becomes a `file` item with a
 * deprecation warning, and that `file` item maps to itself without one. Undefined where it is missing
 * (ai 6) or behaves otherwise: the old items are then handed on as they are.
 */
export function checkedMapping(map: unknown): MapToolResultOutput | undefined {
  if (typeof map !== "function") return undefined;
  try {
    const warned: { type?: unknown }[] = [];
    const probe = { type: "image-data", data: "AAAA", mediaType: "image/png" };
    const mapping = map as MapToolResultOutput;
    const once = mapping({
      output: { type: "content", value: [probe] },
      warnings: warned,
      downloadedAssets: {},
    });
    const file = once.value[0] as {
      type?: unknown;
      mediaType?: unknown;
      data?: { type?: unknown; data?: unknown };
    };
    if (file.type !== "file" || file.mediaType !== "image/png") return undefined;
    if (file.data?.type !== "data" || file.data.data !== "AAAA") return undefined;
    if (warned.length !== 1 || warned[0]!.type !== "deprecated") return undefined;
    const again: { type?: unknown }[] = [];
    const twice = mapping({ output: once, warnings: again, downloadedAssets: {} });
    if (again.length !== 0 || twice.value[0]?.type !== "file" || twice.value[0].mediaType !== "image/png")
      return undefined;
    return mapping;
  } catch {
    return undefined;
  }
}
