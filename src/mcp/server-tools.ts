// What a server configuration offers, made once per tool list. The SDK's HTTP entry makes a server per
// request (2026-07-28 is stateless), and binding thousands of tools, a set of their names and a registry
// of them at every request and call cost more than the call itself. Servers made from one tool list (the
// `tools` array of the options, whose other fields it was made with unchanged, with no schema module
// registered since) share what it made.
import { schemaStoreVersion } from "../schema/schema-store.js";
import type { HandleDiscovery } from "../strategies/handle-discovery.js";
import type { HandleKey } from "../tools/entity-handle.js";
import { returnedProviderClasses } from "../tools/provider-classes.js";
import { KeyRing, type SigningKey } from "../tools/signing-key.js";
import type { AnyTool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { toolsFrom, type ToolSource } from "../tools/tool-sources.js";
import { HandleSurface } from "./handle-surface.js";
import type { McpServerOptions } from "./mcp-server-options.js";

/** The tools of one server configuration, shared by every server made from it. */
export interface ServerTools {
  /** The keys handles and approval questions are signed with. */
  readonly keys: KeyRing;
  /** The configured tools, bound. */
  readonly plain: readonly AnyTool[];
  /** Their names: what a closing 2025-11-25 session keeps, and what a handle tool never takes. */
  readonly plainNames: ReadonlySet<string>;
  /** The 2026-07-28 list: the plain tools, then the handle tools of the classes (frozen). */
  readonly listed: readonly AnyTool[];
  /**
   * One 2026-07-28 call's registry and handles-mode discovery: the registry of `listed`, made once and
   * forked (see `ToolRegistry.fork`), with the call's own handle tools in the place of the listed ones
   * (the same names), so what the call binds and what its strategies add stay the call's.
   */
  forCall(): { readonly registry: ToolRegistry; readonly discovery?: HandleDiscovery };
}

interface Made {
  /** What the tools were made from (see `inputsOf`). */
  readonly from: readonly unknown[];
  readonly tools: ServerTools;
}

const made = new WeakMap<readonly ToolSource[], Made>();

/**
 * The tools of `options`: those made for an earlier server of the same `tools` array when nothing they
 * were made from changed since (the array's elements, the classes, discovery, the key, the resolver, the
 * registered schema modules).
 *
 * @throws DuplicateToolNameError, InvalidToolProviderError, InvalidSettingError as a server's making does.
 */
export function serverTools(options: McpServerOptions): ServerTools {
  const from = inputsOf(options);
  const known = made.get(options.tools);
  if (known && sameValues(known.from, from)) return known.tools;
  const tools = makeServerTools(options);
  made.set(options.tools, { from, tools });
  return tools;
}

/**
 * What a server that lives on (a stdio connection, a session) serves at each request: the tools of
 * `options` as the server was made with them, made again when a schema module was registered since (one
 * comparison a request while none was).
 *
 * @throws as {@link serverTools}, at a request after a registration that makes the tools fail to bind.
 */
export function currentServerTools(options: McpServerOptions): () => ServerTools {
  let version = schemaStoreVersion();
  let tools = serverTools(options);
  return () => {
    const now = schemaStoreVersion();
    if (version !== now) {
      tools = serverTools(options); // a module that breaks the tools fails every request until fixed
      version = now;
    }
    return tools;
  };
}

function makeServerTools(options: McpServerOptions): ServerTools {
  const keys =
    options.handleKey === undefined
      ? KeyRing.processWide()
      : KeyRing.of("handleKey", configuredKey(options.handleKey));
  const plain = toolsFrom(options.tools, []);
  const plainNames: ReadonlySet<string> = new Set(plain.map((t) => t.name));
  const classes = options.classes ?? (options.discovery ? returnedProviderClasses(plain) : []);
  const surface =
    classes.length > 0
      ? new HandleSurface({ classes, keys, resolveProvider: options.resolveProvider, takenNames: plainNames })
      : undefined;
  const listed = Object.freeze([...plain, ...(surface?.forCall().tools ?? [])]);
  const registry = new ToolRegistry(listed);
  return {
    keys,
    plain,
    plainNames,
    listed,
    forCall: () => {
      const fork = registry.fork();
      const handles = surface?.forCall();
      if (!handles) return { registry: fork };
      fork.add(handles.tools); // permanent names: they replace the listed tools, nothing is evicted
      return { registry: fork, discovery: handles.discovery };
    },
  };
}

// A key given as bytes is copied the first time a server is made with it, and that copy signs for every
// server made with the same buffer after: a caller may reuse or wipe its buffer (`key.fill(0)`) once the
// server is configured, and the key in use must not change then, nor later when the tool list is made
// again for another reason. A new key is a new value (another buffer, a string), compared by identity.
const configuredBytes = new WeakMap<Uint8Array, Uint8Array>();

function configuredKey(key: HandleKey): HandleKey {
  const copied = (one: SigningKey): SigningKey => {
    if (!(one instanceof Uint8Array)) return one; // text cannot change; anything else KeyRing refuses
    let copy = configuredBytes.get(one);
    if (!copy) configuredBytes.set(one, (copy = Uint8Array.from(one)));
    return copy;
  };
  return Array.isArray(key) ? (key as readonly SigningKey[]).map(copied) : copied(key as SigningKey);
}

/** Everything `makeServerTools` reads, as one list of values to compare by identity. */
function inputsOf(options: McpServerOptions): unknown[] {
  const { tools, classes, discovery, handleKey, resolveProvider } = options;
  const keys = Array.isArray(handleKey) ? handleKey : [handleKey];
  return [
    schemaStoreVersion(),
    discovery,
    resolveProvider,
    classes?.length,
    ...(classes ?? []),
    keys.length,
    ...keys,
    ...tools,
  ];
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
