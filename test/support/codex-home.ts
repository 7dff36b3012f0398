// A fresh CODEX_HOME whose config.toml sends the real `codex app-server` to a local Responses mock.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./temp-dir.js";

export function codexHomeFor(baseURL: string): string {
  const home = tempDir("codex-home-");
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
