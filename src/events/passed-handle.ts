/**
 * What `known` holds for the entity handle a call's input passes, whatever its property is named
 * (`handle`, `_handle`): a handle is signed, so no other text of an input equals one. How the cost ledger
 * and the run log tell which provider a handle tool's call was for.
 */
export function byPassedHandle<T>(input: unknown, known: ReadonlyMap<string, T>): T | undefined {
  if (known.size === 0 || typeof input !== "object" || input === null) return undefined;
  for (const value of Object.values(input)) {
    const found = typeof value === "string" ? known.get(value) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}
