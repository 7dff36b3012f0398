// What a Codex app-server backend is configured with: the process it starts, and the threads it opens.
import type { NewToolsMode } from "../loop/ports/conversation-port.js";
import type { OpenAiToolChoice } from "./dynamic-tools.js";

/** Options of {@link CodexAppServerAdapter}. */
export interface CodexAppServerOptions {
  /** Executable to run; default: the `codex` of the installed `@openai/codex` package, run with this Node. */
  readonly command?: string | undefined;
  /** Arguments; default `app-server --disable plugins --disable unbounded_connection_retries`. */
  readonly args?: readonly string[] | undefined;
  /** `CODEX_HOME` for the child (where its `config.toml` names the model provider). */
  readonly codexHome?: string | undefined;
  /**
   * Extra environment for the child, on top of this process's. A variable given as `undefined` is not set
   * by it and keeps this process's value (`{ OPENAI_API_KEY: process.env.OPENAI_API_KEY }` is the same as
   * leaving it out).
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Working directory of the thread; default the process's. */
  readonly cwd?: string | undefined;
  /** Model for `thread/start`; default the one in `config.toml`. */
  readonly model?: string | undefined;
  /** Limit of each request's wait (initialize, thread/start, turn/start...). Default 30 s. */
  readonly requestTimeoutMs?: number | undefined;
  /** Limit of one whole turn. Default 10 minutes. */
  readonly turnTimeoutMs?: number | undefined;
  /**
   * When tools appear during a turn (discovery): `"restart"` (default) interrupts the turn and continues in
   * a new thread that has them; `"dispatch"` keeps the thread and offers a fixed `call_discovered_tool`.
   * `"dynamic"` is refused: Codex fixes a thread's tools when it starts.
   */
  readonly newTools?: NewToolsMode | undefined;
  /** OpenAI-style tool choice applied to the tools sent at `thread/start`. */
  readonly toolChoice?: OpenAiToolChoice | undefined;
}

/** The arguments `codex` starts with when the options give no `args`: its app-server, plugins off. */
export const DEFAULT_CODEX_ARGS = [
  "app-server",
  "--disable",
  "plugins",
  "--disable",
  "unbounded_connection_retries",
] as const;
