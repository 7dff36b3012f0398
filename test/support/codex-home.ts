// A fresh CODEX_HOME whose config.toml sends the real `codex app-server` to a local Responses mock.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function codexHomeFor(baseURL: string): string {
  const home = mkdtempSync(path.join(tmpdir(), "codex-home-"));
  writeFileSync(
    path.join(home, "config.toml"),
    [
      'model = "gpt-test"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      "[model_providers.mock]",
      'name = "local mock"',
      `base_url = "${baseURL}"`,
      'wire_api = "responses"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "",
    ].join("\n"),
  );
  return home;
}

/** Reading a Responses request body: the tools offered and the function-call outputs sent back. */
export const toolNames = (body: Record<string, unknown>): string[] =>
  ((body.tools as { name?: string }[] | undefined) ?? []).flatMap((t) => (t.name ? [t.name] : []));

type InputItem = { type?: string; name?: string; call_id?: string; output?: unknown };
const items = (body: Record<string, unknown>) => (body.input as InputItem[] | undefined) ?? [];

export const functionOutputs = (body: Record<string, unknown>): string[] =>
  items(body).flatMap((i) =>
    i.type === "function_call_output"
      ? [typeof i.output === "string" ? i.output : JSON.stringify(i.output)]
      : [],
  );

export const calledTools = (body: Record<string, unknown>): string[] =>
  items(body).flatMap((i) => (i.type === "function_call" && i.name ? [i.name] : []));
