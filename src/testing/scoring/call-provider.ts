import { handleIdentityOf } from "../../tools/entity-handle.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";

/**
 * The provider the handle in a handle tool's input names (the handle property is `handle`, or `_handle`…
 * when the method has a parameter of that name: the longest is the handle), or `undefined`. Read without
 * the key: for reports about a run, never for binding.
 */
export function handleProviderOf(input: unknown): ProviderIdentity | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const keys = Object.keys(input).filter((key) => /^_*handle$/.test(key));
  const key = keys.sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : handleIdentityOf((input as Record<string, unknown>)[key]);
}
