// The login shell the real `codex app-server` starts at a thread's start to snapshot the user's environment
// (its `shell_snapshot` feature): what a run that ends while it reads the user's profile leaves behind, and
// the documented way to have none (docs/backends.md, "What Codex leaves running"). The user's profile is a
// HOME of the test's own whose .bashrc says it was read, then waits.
import { existsSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { CodexAppServerAdapter, DEFAULT_CODEX_ARGS } from "entity-tools/codex";
import { startOpenAiResponsesMock, type OpenAiResponsesMock } from "entity-tools/testing";
import { codexHomeFor } from "../support/codex-home.js";
import { processesIn, programOf } from "../support/processes-in.js";
import { tempDir } from "../support/temp-dir.js";

let mock: OpenAiResponsesMock | undefined;
const left: number[] = [];
afterEach(async () => {
  await mock?.close();
  for (const pid of left.splice(0)) process.kill(pid, "SIGKILL"); // what the test's profile left waiting
});

/** A HOME whose .bashrc creates `profile-read` in it, then waits (as a slow profile command would). */
function homeWithSlowProfile() {
  const home = tempDir("home-");
  writeFileSync(path.join(home, ".bashrc"), 'touch "$HOME/profile-read"\nsleep 600\n');
  const marker = path.join(home, "profile-read");
  /** Resolves once the profile has been read (a file event, not a poll). */
  const read = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        if (!existsSync(marker)) return;
        watcher.close();
        resolve();
      };
      const watcher = watch(home, done);
      done(); // made before the watch began
    });
  return { home, read, wasRead: () => existsSync(marker) };
}

async function codexWith(
  home: string,
  args?: readonly string[],
  tools = [] as ReturnType<typeof defineTool>[],
) {
  mock = await startOpenAiResponsesMock((request) =>
    tools.length > 0 && request.toolResults.length === 0
      ? { toolCalls: [{ name: tools[0]!.name, input: {} }] }
      : { text: "Hello." },
  );
  const codexHome = codexHomeFor(mock.baseURL);
  const adapter = new CodexAppServerAdapter({ codexHome, env: { HOME: home }, ...(args ? { args } : {}) });
  return { runner: new PromptRunner({ adapter }).withTools(...tools), codexHome };
}

describe("the login shell of Codex's environment snapshot", () => {
  it("B05 a run that ends while the snapshot's login shell reads the user's profile: Codex has killed that shell, and the profile's command it was running goes on by itself", async () => {
    const profile = homeWithSlowProfile();
    const waitForProfile = defineTool({
      name: "waitForProfile",
      description: "Returns once the user's shell profile has been read",
      inputSchema: { type: "object", properties: {} },
      execute: () => profile.read().then(() => "read"),
    });
    const { runner, codexHome } = await codexWith(profile.home, undefined, [waitForProfile]);
    expect((await runner.run("Say hello")).result).toBe("Hello.");
    left.push(...processesIn(codexHome));
    // Not Codex's (its app-server and native binary are gone: B02), nor its login shell: the profile's
    // command, in the shell's session, which the app-server's exit did not end.
    expect(left.map(programOf)).toEqual(["sleep 600"]);
  }, 60_000);

  it("B05 with --disable shell_snapshot (docs/backends.md), Codex reads no shell profile at a thread's start, and nothing of it is left when run() resolves", async () => {
    const profile = homeWithSlowProfile();
    const { runner, codexHome } = await codexWith(profile.home, [
      ...DEFAULT_CODEX_ARGS,
      "--disable",
      "shell_snapshot",
    ]);
    expect((await runner.run("Say hello")).result).toBe("Hello.");
    left.push(...processesIn(codexHome));
    expect(left).toEqual([]);
    expect(profile.wasRead()).toBe(false);
  }, 60_000);
});
