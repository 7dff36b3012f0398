import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner, type ToolMiddleware } from "entity-tools";
import { call, mockModel, text } from "../../support/mock-model.js";
import {
  invokeTool,
  isToolTimeout,
  releaseRunSignal,
  ToolTimeout,
} from "../../../src/loop/execution/invoke-tool.js";

describe("invokeTool", () => {
  it("runs the tool through the middleware, outermost first", async () => {
    const order: string[] = [];
    const layer =
      (name: string): ToolMiddleware =>
      async (_call, next) => {
        order.push(name);
        return `${name}(${String(await next())})`;
      };
    const tool = defineTool({ name: "t", description: "t", execute: () => "x" });
    expect(await invokeTool(tool, {}, "1", { middleware: [layer("a"), layer("b")] })).toBe("a(b(x))");
    expect(order).toEqual(["a", "b"]);
  });

  it("stops at the time limit and aborts the tool's own signal", async () => {
    let toolSignal: AbortSignal | undefined;
    const tool = defineTool({
      name: "slow",
      description: "slow",
      execute: (_input, { signal }) => ((toolSignal = signal), new Promise(() => {})),
    });
    const error = await invokeTool(tool, {}, "1", { middleware: [], timeoutMs: 10 }).catch((e: unknown) => e);
    expect(isToolTimeout(error)).toBe(true);
    expect((error as ToolTimeout).ms).toBe(10);
    expect(toolSignal?.aborted).toBe(true);
  });

  it("stops when the run is cancelled, with the run's reason", async () => {
    const controller = new AbortController();
    const tool = defineTool({ name: "slow", description: "slow", execute: () => new Promise(() => {}) });
    setTimeout(() => controller.abort(new Error("stop")), 5);
    await expect(invokeTool(tool, {}, "1", { middleware: [], signal: controller.signal })).rejects.toThrow(
      "stop",
    );
  });

  it("a tool that reads its signal only after the run was cancelled finds it aborted, with the reason", async () => {
    const controller = new AbortController();
    let context: { readonly signal: AbortSignal } | undefined;
    const tool = defineTool({
      name: "slow",
      description: "slow",
      execute: (_input, given) => ((context = given), new Promise(() => {})),
    });
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 5);
    await expect(invokeTool(tool, {}, "1", { middleware: [], signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(context!.signal.aborted).toBe(true);
    expect(context!.signal.reason).toBe(reason);
  });

  it("cancelling a run stops every call running on it and aborts each call's signal; a finished call's stays", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const hang = defineTool({
      name: "hang",
      description: "hang",
      execute: (_input, { signal }) => (signals.push(signal), new Promise(() => {})),
    });
    const quick = defineTool({
      name: "quick",
      description: "quick",
      execute: (_input, { signal }) => signals.push(signal),
    });
    const options = { middleware: [], signal: controller.signal };
    await invokeTool(quick, {}, "0", options);
    const running = [invokeTool(hang, {}, "1", options), invokeTool(hang, {}, "2", options)];
    controller.abort(new Error("stop"));
    for (const call of running) await expect(call).rejects.toThrow("stop");
    expect(signals.map((s) => s.aborted)).toEqual([false, true, true]);
  });

  it("gives every call its own signal, read through middleware as the tool reads it", async () => {
    const seen: AbortSignal[] = [];
    const tool = defineTool({
      name: "t",
      description: "t",
      execute: (_input, { signal }) => seen.push(signal),
    });
    const spy: ToolMiddleware = async (call, next) => (seen.push(call.context.signal), next());
    await invokeTool(tool, {}, "1", { middleware: [spy] });
    await invokeTool(tool, {}, "2", { middleware: [spy] });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).toBe(seen[3]);
    expect(seen[0]).not.toBe(seen[2]);
    expect(seen.every((s) => s instanceof AbortSignal && !s.aborted)).toBe(true);
  });

  it("isToolTimeout is safe for any thrown value, a revoked Proxy included", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isToolTimeout(proxy)).toBe(false);
    expect(isToolTimeout(new Error("x"))).toBe(false);
  });

  it("runs that share the caller's signal leave no listener on their run's signal once they end (else Node keeps each run's signal, and what it holds, as long as the caller's lives)", async () => {
    const user = new AbortController();
    // Every signal an abort listener was added to: the caller's, each run's, each session's end.
    const listened = new Set<AbortSignal>();
    const add = AbortSignal.prototype.addEventListener;
    const spy = vi.spyOn(AbortSignal.prototype, "addEventListener").mockImplementation(function (
      this: AbortSignal,
      ...args: Parameters<AbortSignal["addEventListener"]>
    ) {
      if (args[0] === "abort") listened.add(this);
      add.apply(this, args);
    });
    try {
      const tool = defineTool({ name: "t", description: "t", execute: () => "ok" });
      for (let i = 0; i < 3; i++) {
        const model = mockModel(call("t"), call("t"), text("done"));
        const run = await new PromptRunner({ model }).withTools(tool).run("q", { signal: user.signal });
        expect(run.result).toBe("done");
      }
    } finally {
      spy.mockRestore();
    }
    const made = [...listened].filter((signal) => signal !== user.signal);
    expect(made.length).toBeGreaterThanOrEqual(3);
    expect(made.map((signal) => getEventListeners(signal, "abort").length)).toEqual(made.map(() => 0));
    expect(listened.has(user.signal)).toBe(true);
    expect(getEventListeners(user.signal, "abort")).toEqual([]);
  });

  it("a run signal released while a call runs still stops that call, and loses its listener when the call ends", async () => {
    const controller = new AbortController();
    const hang = defineTool({ name: "hang", description: "hang", execute: () => new Promise(() => {}) });
    const quick = defineTool({ name: "quick", description: "quick", execute: () => "ok" });
    const options = { middleware: [], signal: controller.signal };
    const running = invokeTool(hang, {}, "1", options);
    releaseRunSignal(controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort(new Error("stop"));
    await expect(running).rejects.toThrow("stop");

    const other = new AbortController();
    await invokeTool(quick, {}, "2", { middleware: [], signal: other.signal });
    releaseRunSignal(other.signal);
    expect(getEventListeners(other.signal, "abort")).toHaveLength(0);
  });
});
