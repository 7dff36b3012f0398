// The Node warnings a test expects (a cassette cut at its end, a part type entity-tools does not know).
import { vi } from "vitest";

/** Each Node warning emitted from now on, as `code: message` (restore with `vi.restoreAllMocks()`). */
export function warnings(): string[] {
  const seen: string[] = [];
  vi.spyOn(process, "emitWarning").mockImplementation(((message: string, options?: { code?: string }) => {
    seen.push(`${options?.code}: ${message}`);
  }) as typeof process.emitWarning);
  return seen;
}
