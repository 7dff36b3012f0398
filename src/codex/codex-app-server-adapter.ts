import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createRequire } from "node:module";
import type {
  Conversation,
  ConversationAdapter,
  ConversationSetup,
  FixedToolsMode,
} from "../loop/ports/conversation-port.js";
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import { childEnvironment } from "../local/child-environment.js";
import { CODEX_RESULT_MEDIA_TYPES } from "./codex-content-items.js";
import { CodexConversation } from "./codex-conversation.js";
import { DEFAULT_CODEX_ARGS, type CodexAppServerOptions } from "./codex-options.js";

/**
 * The OpenAI Codex CLI's `app-server` (JSON-RPC over stdio) as a backend. Codex runs the model loop and
 * asks us to run tools (`item/tool/call`), which go through the same executor as every other backend. Tools
 * are fixed when a thread starts, so `supportsDynamicTools` is false.
 */
export class CodexAppServerAdapter implements ConversationAdapter {
  /** False: Codex fixes a thread's tools when it starts. */
  readonly supportsDynamicTools = false;
  /** What it does when tools appear during a turn: `"restart"` (default) or `"dispatch"`. */
  readonly newTools: FixedToolsMode;
  /** Images and audio reach Codex's model as `inputImage`/`inputAudio` items; files are described in text. */
  readonly toolResultMediaTypes = CODEX_RESULT_MEDIA_TYPES;

  constructor(private readonly options: CodexAppServerOptions = {}) {
    const mode = options.newTools ?? "restart";
    if (mode === "dynamic")
      throw new InvalidSettingError(
        "newTools",
        mode,
        '"restart" or "dispatch" (Codex fixes a thread\'s tools when it starts)',
      );
    this.newTools = mode;
  }

  /** Starts the app-server process and a thread with the run's tools. */
  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    const child = this.spawnServer();
    const conversation = new CodexConversation(child, setup, this.options);
    try {
      await conversation.start();
      return conversation;
    } catch (error) {
      await conversation.close();
      throw error;
    }
  }

  private spawnServer(): ChildProcessWithoutNullStreams {
    const args = [...(this.options.args ?? DEFAULT_CODEX_ARGS)];
    const [command, commandArgs] = this.options.command
      ? [this.options.command, args]
      : [process.execPath, [createRequire(import.meta.url).resolve("@openai/codex/bin/codex.js"), ...args]];
    const { codexHome } = this.options;
    const env = childEnvironment(codexHome ? { CODEX_HOME: codexHome } : {}, this.options.env);
    return spawn(command, commandArgs, { env, stdio: ["pipe", "pipe", "pipe"] });
  }
}
