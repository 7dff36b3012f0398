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
