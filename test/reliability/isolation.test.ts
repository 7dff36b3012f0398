import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Exclude } from "class-transformer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, type ModelAdapter, type ToolLoopEvent } from "entity-tools";
import { call, mockModel, text } from "../support/mock-model.js";
import { Item } from "./matrix-support.js";

const open = defineTool<{ id: string }>({
  name: "open",
  description: "Open an item",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => new Item(id),
});

describe("isolation and resources", () => {
  it("100 concurrent runs on one runner: no tool, state or event crosses between runs", async () => {
    // One model serves every run; each turn is decided from that run's own prompt.
    const model = mockModel(
      ...Array.from(
        { length: 300 },
        () => (options: Parameters<Extract<Parameters<typeof mockModel>[0], Function>>[0]) => {
          const user = JSON.stringify(options.prompt.find((m) => m.role === "user")?.content);
          const id = /run(\d+)/.exec(user)![1]!;
          const toolTurns = options.prompt.filter((m) => m.role === "tool").length;
          if (toolTurns === 0) return call("open", { id: `i${id}` });
          if (toolTurns === 1) return call(`item_i${id}_describe`);
          return text(`done ${id}: ${(options.tools ?? []).map((t) => t.name).join(",")}`);
        },
      ),
    );
    const events: ToolLoopEvent[] = [];
    const runner = new PromptRunner({ model })
      .withTools(open)
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e));
    const runs = await Promise.all(
      Array.from({ length: 100 }, (_, n) => runner.run(`please handle run${n}`)),
    );
    runs.forEach((run, n) => {
      expect(run.result).toBe(`done ${n}: open,item_i${n}_describe`);
      expect(run.injectedTools.map((t) => t.name)).toEqual([`item_i${n}_describe`]);
      expect(JSON.stringify(run.conversationHistory)).not.toMatch(new RegExp(`item_i(?!${n}_)\\d+_`));
    });
    const byRun = new Map<string, ToolLoopEvent[]>();
    for (const e of events) byRun.set(e.runId, [...(byRun.get(e.runId) ?? []), e]);
    expect(byRun.size).toBe(100);
    for (const list of byRun.values()) expect(list.filter((e) => e.type === "ToolsInjected")).toHaveLength(1);
  });

  it("a provider discovered in a run is not retained after the run ends", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    let ref: WeakRef<object> | undefined;
    const spawn = defineTool({
      name: "spawn",
      description: "Spawn",
      execute: () => {
        const item = new Item("ephemeral");
        ref = new WeakRef(item);
        return item;
      },
    });
    const runner = new PromptRunner({
      model: mockModel(call("spawn"), call("item_ephemeral_describe"), text("ok")),
    })
      .withTools(spawn)
      .withToolProviderDiscovery();
    await (async () => {
      const run = await runner.run("go");
      expect(run.injectedTools[0]!.origin!.instance).toBe(ref!.deref());
    })();
    for (let i = 0; i < 10 && ref!.deref() !== undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
    }
    expect(ref!.deref()).toBeUndefined();
  });

  it("a long-lived signal that many runs share keeps nothing of them (run and stream)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const adapter: ModelAdapter = {
      supportsDynamicTools: true,
      step: async () => ({
        responseMessages: [{ role: "assistant", content: "ok" }],
        toolCalls: [],
        text: "ok",
      }),
    };
    const runner = new PromptRunner({ adapter });
    const shutdown = new AbortController(); // a server's, given to every run
    const runs = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await runner.run("q", { signal: shutdown.signal });
        const stream = runner.stream("q", { signal: shutdown.signal });
        for await (const part of stream.parts) void part;
      }
    };
    const heapAfterGc = async () => {
      for (let i = 0; i < 2; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return process.memoryUsage().heapUsed;
    };
    await runs(200); // what is made once (compiled code, caches) is made
    const before = await heapAfterGc();
    await runs(2_000);
    // Node 22 kept 0.5 kB of each run (1.1 kB of a streamed one) for as long as the signal did not fire.
    expect((await heapAfterGc()) - before).toBeLessThan(2 * 2_000 * 200);
  });

  it("property: no @Exclude()d, #private or non-enumerable value ever reaches the model", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.jsonValue(), { maxKeys: 5 }),
        fc.stringMatching(/^[A-Z]{10}$/),
        async (fields, token) => {
          const secret = `SECRET_${token}`;
          class Account {
            @Exclude() apiKey = secret;
            #pin = secret;
            constructor() {
              Object.assign(this, fields);
              Object.defineProperty(this, "hidden", { value: secret, enumerable: false });
            }
            pin(): string {
              return this.#pin;
            }
          }
          const leak = defineTool({
            name: "account",
            description: "Account",
            execute: () => ({ account: new Account(), list: [new Account()] }),
          });
          const model = mockModel(call("account"), text("ok"));
          await new PromptRunner({ model }).withTools(leak).run("go");
          expect(JSON.stringify(model.doGenerateCalls.map((c) => c.prompt))).not.toContain(secret);
        },
      ),
      { numRuns: 60 },
    );
  });
});
