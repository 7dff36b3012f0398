import { EntityToolsError } from "../errors/entity-tools-error.js";
import type { HandleDiscovery } from "../strategies/handle-discovery.js";
import { providerClassNamed } from "../tools/provider-classes.js";
import {
  READABLE_SNAPSHOT_VERSIONS,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type RunSnapshot,
  type SnapshotTool,
} from "../loop/run-snapshot.js";
import { bindProviderTools } from "../tools/bind-tools.js";
import type { AnyTool } from "../tools/tool.js";

export type { ProviderResolver } from "../tools/entity-handle-bindings.js";
import type { ProviderResolver } from "../tools/entity-handle-bindings.js";

/** A snapshot this runner cannot resume: another format or version, or tools it does not have. */
export class SnapshotError extends EntityToolsError {}

/**
 * Checks that a snapshot can be resumed by this runner, before any model call.
 *
 * @throws SnapshotError naming what does not fit.
 */
export function checkSnapshot(snapshot: RunSnapshot, offered: ReadonlySet<string>): void {
  if (typeof snapshot !== "object" || snapshot === null || snapshot.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotError(`Not a run snapshot: expected format "${SNAPSHOT_FORMAT}"`);
  }
  if (!READABLE_SNAPSHOT_VERSIONS.includes(snapshot.version)) {
    throw new SnapshotError(
      `The snapshot has format version ${String(snapshot.version)}; this entity-tools reads versions ${READABLE_SNAPSHOT_VERSIONS.join(" and ")} (and writes ${SNAPSHOT_VERSION})`,
    );
  }
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
}

/** The key of one provider in a snapshot (class, typed id): what {@link restoreTools}'s `live` map uses. */
export function snapshotProviderKey(providerClass: string, idType: string, id: string | number): string {
  return `${providerClass}|${idType}:${String(id)}`;
}

/**
 * Re-binds a snapshot's discovered tools: the object `live` holds for a provider (the run that made the
 * snapshot ran in this process), else `resolve(providerClass, id)`, gives each provider's object, whose
 * tools keep the names the conversation used. A provider that cannot be resolved (nothing returned, an
 * error, another class, no such method) is skipped and reported, as discovery reports a provider it
 * cannot bind: the run goes on.
 */
export async function restoreTools(
  snapshot: RunSnapshot,
  resolve: ProviderResolver | undefined,
  handles?: HandleDiscovery,
  live: ReadonlyMap<string, object> = new Map(),
): Promise<RestoredTools> {
  const groups = new Map<string, Extract<SnapshotTool, { id: unknown }>[]>();
  const restored: RestoredTools = { tools: [], notices: [], lost: new Map() };
  for (const tool of snapshot.tools) {
    if ("binding" in tool) {
      restoreHandleTool(tool, handles, restored);
      continue;
    }
    if (!("providerClass" in tool)) continue;
    const key = snapshotProviderKey(tool.providerClass, tool.idType, tool.id);
    groups.set(key, [...(groups.get(key) ?? []), tool]);
  }
  for (const [key, entries] of groups) {
    const { providerClass, id } = entries[0]!;
    const label = `${providerClass} ${JSON.stringify(id)}`;
    try {
      const instance = live.get(key) ?? (await resolved(resolve, providerClass, id));
      if (typeof instance !== "object" || instance === null)
        throw new Error("resolveProvider returned nothing");
      const bound = bindProviderTools(instance);
      for (const entry of entries) {
        const tool = bound.find((t) => t.origin?.methodName === entry.method);
        if (!tool) throw new Error(`it has no tool method ${entry.method}`);
        restored.tools.push({ ...tool, name: entry.name });
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      restored.notices.push(
        `Cannot restore the tools of ${label} (${entries.map((e) => e.name).join(", ")}): ${why}; they are no longer available.`,
      );
      for (const entry of entries) restored.lost.set(entry.name, label);
    }
  }
  return restored;
}

async function resolved(resolve: ProviderResolver | undefined, providerClass: string, id: string | number) {
  if (!resolve) throw new Error("no resolveProvider was given to resume or continueFrom");
  return resolve(providerClass, id);
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
  if (tool) {
    restored.tools.push(tool.name === entry.name ? tool : { ...tool, name: entry.name });
    return;
  }
  const why = !handles
    ? 'this runner does not bind handles (withToolProviderDiscovery({ binding: "handles" }))'
    : !providerClass
      ? `no @ToolProvider class named ${entry.providerClass} is loaded`
      : `${entry.providerClass} has no tool method ${entry.method}`;
  restored.notices.push(`Cannot restore the tool ${entry.name}: ${why}; it is no longer available.`);
}
