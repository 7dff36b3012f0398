import { expect } from "vitest";

/**
 * Every request's messages begin with the previous request's messages, byte for byte: the provider's
 * cache (keyed on the prefix) serves all of the previous request again.
 */
export function expectAppendOnly(messages: readonly (readonly unknown[])[]): void {
  for (let i = 1; i < messages.length; i++) {
    const previous = messages[i - 1]!;
    expect(messages[i]!.length).toBeGreaterThan(previous.length);
    expect(JSON.stringify(messages[i]!.slice(0, previous.length))).toBe(JSON.stringify(previous));
  }
}
