// The environment a backend's child process (Codex, Claude Code) starts with: one rule for both.

/**
 * This process's environment with each of `layers`' variables set on top, in order. A variable a layer
 * gives as `undefined` is not set by it and keeps the value below: `{ KEY: process.env.KEY }` is the same
 * as leaving it out (a spread would pass `undefined`, and the child would start without the variable).
 */
export function childEnvironment(
  ...layers: readonly (Readonly<Record<string, string | undefined>> | undefined)[]
): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const layer of layers)
    for (const [name, value] of Object.entries(layer ?? {})) if (value !== undefined) env[name] = value;
  return env;
}
