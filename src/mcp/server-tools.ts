// What a server configuration offers, made once per tool list. The SDK's HTTP entry makes a server per
// request (2026-07-28 is stateless), and binding thousands of tools, a set of their names and a registry
// of them at every request and call cost more than the call itself. Servers made from one tool list (the
// `tools` array of the options, with the same elements and other fields it was made with, with no schema
// module registered since) share what it made. A server reads the array once, when it is made: what it
// serves comes from those elements for its whole life (see `McpServerOptions.tools`).
import { schemaStoreVersion } from "../schema/schema-store.js";
import type { HandleDiscovery } from "../strategies/handle-discovery.js";
import type { HandleKey } from "../tools/entity-handle.js";
import { returnedProviderClasses } from "../tools/provider-classes.js";
import { checkToolSchemas } from "../tools/tool-methods.js";
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
  /** What the tools were made from besides the tools (see `inputsOf`). */
  readonly from: readonly unknown[];
  /** The elements of the `tools` array they were made from. */
  readonly sources: readonly ToolSource[];
  readonly tools: ServerTools;
}

const made = new WeakMap<readonly ToolSource[], Made>();

/**
 * The tools of `options` (arrays fixed, see `fixedOptions`), for a server made from the `tools` array
 * `list`: those made for an earlier server of the same array when nothing they were made from changed
 * since (its elements, the classes, discovery, the key, the resolver, the registered schema modules).
 *
 * @throws DuplicateToolNameError, InvalidToolProviderError, InvalidSettingError, DecoratorMisuseError as a
 *   server's making does.
 */
function serverTools(list: readonly ToolSource[], options: McpServerOptions): ServerTools {
  const from = inputsOf(options);
  const known = made.get(list);
  if (known && sameValues(known.from, from) && sameValues(known.sources, options.tools)) return known.tools;
  const tools = makeServerTools(options);
  made.set(list, { from, sources: options.tools, tools });
  return tools;
}

/**
 * What a server serves at each request: the tools of `options` as its arrays (`tools`, `classes`, a list
 * of keys) held them when the server was made, made again from those when a schema module was registered
 * since (one comparison a request while none was). A later change of an array in place is not seen by
 * this server (see `McpServerOptions.tools`); a server made after it (the next HTTP request's) reads it.
 *
 * @throws as {@link serverTools}: when the server is made, and at a request after a registration that
 * makes the tools fail to bind.
 */
export function currentServerTools(options: McpServerOptions): () => ServerTools {
  const fixed = fixedOptions(options);
  let version = schemaStoreVersion();
  let tools = serverTools(options.tools, fixed);
  return () => {
    const now = schemaStoreVersion();
    if (version !== now) {
      tools = serverTools(options.tools, fixed); // a module that breaks the tools fails every request until fixed
      version = now;
    }
    return tools;
  };
}

/**
 * `options` with copies of the arrays a tool list is made from, as they are now (not frozen: freezing
 * 10 000 tools doubled the copy's cost, paid per request over HTTP; no one else holds the copies).
 */
function fixedOptions(options: McpServerOptions): McpServerOptions {
  const { tools, classes, handleKey } = options;
  return {
    ...options,
    tools: [...tools],
    ...(classes ? { classes: [...classes] } : {}),
    ...(Array.isArray(handleKey) ? { handleKey: [...(handleKey as unknown[])] as HandleKey } : {}),
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
  // What a run checks at its start, before its first model call, a server checks before it serves (its
  // tool list, made once for the servers of one configuration): an explicit schema that is not valid JSON
  // Schema, of a tool it offers or of a class a call may discover.
  checkToolSchemas({ discovery: options.discovery === true, tools: listed });
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

/** Everything `makeServerTools` reads besides the tool sources, as one list of values to compare by identity. */
function inputsOf(options: McpServerOptions): unknown[] {
  const { classes, discovery, handleKey, resolveProvider } = options;
  const keys = Array.isArray(handleKey) ? handleKey : [handleKey];
  return [
    schemaStoreVersion(),
    discovery,
    resolveProvider,
    classes?.length,
    ...(classes ?? []),
    keys.length,
    ...keys,
  ];
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
