import { ServerFailure } from "../../errors/server-failure.js";
import { ToolLoopAbortedError } from "../errors/errors.js";
import type { RunSnapshot, SnapshotTool } from "../snapshot/run-snapshot.js";
import { SnapshotError } from "../snapshot/snapshot-error.js";
import { untilAborted } from "../errors/until-aborted.js";
import type { HandleDiscovery } from "../../strategies/handle-discovery.js";
import { providerClassNamed } from "../../tools/provider-classes.js";
import { bindProviderTools } from "../../tools/bind-tools.js";
import {
  checkResolvedProvider,
  ProviderMismatchError,
  nativeIdOf,
  type ProviderResolver,
} from "../../tools/provider-binding.js";
import { providerKeyOf } from "../../tools/provider-identity.js";
import type { AnyTool } from "../../tools/tool.js";
import { isNameFor } from "../../tools/tool-names.js";

export { SnapshotError } from "../snapshot/snapshot-error.js";

export type { ProviderResolver } from "../../tools/provider-binding.js";

/**
 * Checks that a snapshot (already checked against its schema) can be resumed by this runner, before any
 * model call: every static tool it names is one this runner offers.
 *
 * @throws SnapshotError naming the tools it lacks.
 */
export function checkSnapshotTools(snapshot: RunSnapshot, offered: ReadonlySet<string>): void {
  const missing = snapshot.tools
    .filter((t) => !("providerClass" in t) && !offered.has(t.name))
    .map((t) => t.name);
  if (missing.length > 0) {
    throw new SnapshotError(
      `The snapshot's run had tools this runner does not offer: ${missing.join(", ")}. Resume with a runner that has them (withTools, withSystemPrompt, withMcpClient)`,
    );
  }
}

/** The discovered tools of a snapshot, bound again to live providers, and notices for those that could not be. */
export interface RestoredTools {
  readonly tools: AnyTool[];
  readonly notices: string[];
  /** Names of tools that could not be restored, and whose they were (for the model's error results). */
  readonly lost: Map<string, string>;
  /**
   * Each provider whose tools could not be restored: their names, and what `resolveProvider` threw when it
   * threw (for observers only: `ToolsRemoved` with reason `unrestored`; the model reads only that it failed).
   */
  readonly unrestored: { readonly toolNames: readonly string[]; readonly cause?: unknown }[];
}

/**
 * Re-binds a snapshot's discovered tools: the object `live` holds for a provider (the run that made the
 * snapshot ran in this process), else `resolve(providerClass, id)`, gives each provider's object, whose
 * tools keep the names the conversation used. Either must be the provider the snapshot names (its class,
 * its typed id). A provider that cannot be resolved (nothing returned, an error, an object of another
 * class or with another id, no such method) is skipped and reported, as discovery reports a provider it
 * cannot bind: the run goes on. What a resolver throws is not told to the model (`unrestored` has it for
 * observers). A resolver still pending when `signal` fires does not keep the run
 * waiting: the cancellation is thrown.
 */
export async function restoreTools(
  snapshot: RunSnapshot,
  resolve: ProviderResolver | undefined,
  handles?: HandleDiscovery,
  live: ReadonlyMap<string, object> = new Map(),
  signal?: AbortSignal,
): Promise<RestoredTools> {
  const groups = new Map<string, Extract<SnapshotTool, { id: unknown }>[]>();
  const restored: RestoredTools = { tools: [], notices: [], lost: new Map(), unrestored: [] };
  for (const tool of snapshot.tools) {
    if ("binding" in tool) {
      restoreHandleTool(tool, handles, restored);
      continue;
    }
    if (!("providerClass" in tool)) continue;
    const key = providerKeyOf(tool);
    groups.set(key, [...(groups.get(key) ?? []), tool]);
  }
  for (const [key, entries] of groups) {
    const identity = entries[0]!;
    const { providerClass } = identity;
    const id = nativeIdOf(identity);
    const label = `${providerClass} ${typeof id === "bigint" ? `${id}n` : JSON.stringify(id)}`;
    try {
      const instance = live.get(key) ?? (await untilAborted(resolved(resolve, providerClass, id), signal));
      if (instance === undefined || instance === null) throw new Error("resolveProvider returned nothing");
      const bound = bindProviderTools(checkResolvedProvider(instance, identity));
      const tools = entries.map((entry) => {
        const tool = bound.find((t) => t.origin?.methodName === entry.method);
        if (!tool) throw new Error(`it has no tool method ${entry.method}`);
        // The name is the binding's identity too: a snapshot may not call one method by another's name.
        if (!isNameFor(entry.name, tool.name))
          throw new Error(`the snapshot calls its ${entry.method} tool "${entry.name}", not ${tool.name}`);
        return { ...tool, name: entry.name };
      });
      restored.tools.push(...tools);
    } catch (error) {
      if (signal?.aborted) throw new ToolLoopAbortedError(signal.reason);
      const why =
        error instanceof ProviderMismatchError
          ? `resolveProvider ${error.reason}`
          : error instanceof Error
            ? error.message
            : String(error);
      restored.notices.push(
        `Cannot restore the tools of ${label} (${entries.map((e) => e.name).join(", ")}): ${why}; they are no longer available. ` +
          `To get them back, find ${label} again with the tool that returned it.`,
      );
      for (const entry of entries) restored.lost.set(entry.name, label);
      const toolNames = entries.map((e) => e.name);
      restored.unrestored.push(
        error instanceof ServerFailure ? { toolNames, cause: error.cause } : { toolNames },
      );
    }
  }
  return restored;
}

async function resolved(
  resolve: ProviderResolver | undefined,
  providerClass: string,
  id: string | number | bigint,
): Promise<unknown> {
  if (!resolve) throw new Error("no resolveProvider was given to resume or continueFrom");
  try {
    return await resolve(providerClass, id);
  } catch (error) {
    // The application's own code: what it throws may hold anything (a credential), so the model reads only
    // that it failed, and observers what it threw (the run's `ToolsRemoved`), as for a handle's re-binding.
    throw new ServerFailure("resolveProvider", error);
  }
}

/**
 * A handle tool of the snapshot, made again for this run: its instances are re-bound when a call names
 * them (this run's discoveries, else `resolveProvider`), so only the class and method are needed.
 */
function restoreHandleTool(
  entry: Extract<SnapshotTool, { binding: "handles" }>,
  handles: HandleDiscovery | undefined,
  restored: RestoredTools,
): void {
  const providerClass = providerClassNamed(entry.providerClass);
  const tool =
    providerClass && handles?.toolsOf(providerClass).find((t) => t.handleTarget?.methodName === entry.method);
  // As for a provider's tool, the name is the binding's identity: its own, or a renamed form of it.
  if (tool && isNameFor(entry.name, tool.name)) {
    restored.tools.push(tool.name === entry.name ? tool : { ...tool, name: entry.name });
    return;
  }
  const why = tool
    ? `the snapshot calls its ${entry.method} tool "${entry.name}", not ${tool.name}`
    : !handles
      ? 'this runner does not bind handles (withToolProviderDiscovery({ binding: "handles" }))'
      : !providerClass
        ? `no @ToolProvider class named ${entry.providerClass} is loaded`
        : `${entry.providerClass} has no tool method ${entry.method}`;
  restored.notices.push(`Cannot restore the tool ${entry.name}: ${why}; it is no longer available.`);
  restored.unrestored.push({ toolNames: [entry.name] });
}
