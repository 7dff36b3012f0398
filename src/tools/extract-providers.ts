import { isToolProvider } from "./read-provider-id.js";
import { isToolContent } from "./tool-content.js";

/**
 * The provider instances a tool's return value holds: the value itself, or the providers among the
 * elements of an array, `Set`, `Map` (its values) or other re-iterable collection, in order and each once.
 *
 * Not walked, on purpose: fields of plain objects and of providers (a provider method that returns
 * providers is how nesting happens, and walking object graphs would expose whatever a domain object
 * happens to reference), and one-shot iterators such as generators (walking would consume them).
 * In a `ToolContent` result only the values given beside the parts are searched, never the media bytes.
 */
export function extractProviders(value: unknown): object[] {
  if (isToolContent(value)) return [...new Set(value.values.flatMap((v) => extractProviders(v)))];
  if (isToolProvider(value)) return [value];
  const elements = collectionElements(value);
  if (!elements) return [];
  const found = new Set<object>();
  for (const element of elements) if (isToolProvider(element)) found.add(element);
  return [...found];
}

function collectionElements(value: unknown): Iterable<unknown> | undefined {
  if (Array.isArray(value) || value instanceof Set) return value;
  if (value instanceof Map) return value.values();
  if (typeof value !== "object" || value === null || typeof value === "string") return undefined;
  const iterate = (value as Partial<Iterable<unknown>>)[Symbol.iterator];
  if (typeof iterate !== "function") return undefined;
  // An iterator returns itself from [Symbol.iterator]: iterating it here would empty it.
  const iterator = iterate.call(value);
  return (iterator as unknown) === value ? undefined : { [Symbol.iterator]: () => iterator };
}
