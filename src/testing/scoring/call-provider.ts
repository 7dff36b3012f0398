import { handleIdentityOf } from "../../tools/entity-handle.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";

/**
 * The handle in a handle tool's input (the handle property is `handle`, or `_handle`… when the method has
 * a parameter of that name: the longest is the handle), without the white space around it, and the
 * provider its readable part names; `undefined` when the input holds none. Read without the key, so a
 * forged handle names a provider too: for reports about a run that check it otherwise, never for binding.
 */
export function handleOfCall(
  input: unknown,
): { readonly handle: string; readonly provider: ProviderIdentity } | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const keys = Object.keys(input).filter((key) => /^_*handle$/.test(key));
  const key = keys.sort((a, b) => b.length - a.length)[0];
  const value: unknown = key === undefined ? undefined : (input as Record<string, unknown>)[key];
  const provider = handleIdentityOf(value);
  return provider && typeof value === "string" ? { handle: value.trim(), provider } : undefined;
}
