import type { JsonSchema } from "./json-schema.js";

const PREFIX = "#/definitions/";
// How the compiler names a type of another module in an ES module project: `import("/abs/file",{…}).T`.
const MODULE_QUALIFIER = /^import\(.*\)\./s;

/**
 * A self-contained copy of a generated schema: every `#/definitions/X` reference replaced by the
 * definition itself and `$schema` dropped, so a provider receives one plain object. A recursive type cannot
 * be inlined forever: its references stay, and only those definitions are kept at the root, under the
 * type's own name (the `import("/abs/file").` the compiler puts before a type of another module in an ES
 * module project is dropped, so no machine path is kept and the reference resolves in any checkout).
 * A member of an `anyOf` that refers to one of the `titled` types gets its name as `title`: the classes
 * of a union of classes, whose names then tell the model (and validation messages) which is which.
 */
export function inlineRefs(schema: JsonSchema, titled: ReadonlySet<string> = new Set()): JsonSchema {
  const definitions = (schema.definitions ?? {}) as Record<string, unknown>;
  const kept = new Map<string, unknown>();
  const portable = new Map<string, string>(); // kept definition → the name it is kept under
  const portableOf = (name: string): string => {
    let short = portable.get(name);
    if (short !== undefined) return short;
    const base = name.replace(MODULE_QUALIFIER, "");
    const taken = new Set(portable.values());
    short = base;
    for (let n = 2; taken.has(short); n++) short = `${base}_${n}`;
    portable.set(name, short);
    return short;
  };

  const resolve = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, stack));
    if (typeof node !== "object" || node === null) return node;
    const { $ref, ...rest } = node as JsonSchema;
    if (typeof $ref === "string" && $ref.startsWith(PREFIX)) {
      const name = decodeURIComponent($ref.slice(PREFIX.length));
      if (stack.includes(name)) {
        if (!kept.has(name)) kept.set(name, undefined);
        return {
          ...mapValues(rest, stack, resolve),
          $ref: `${PREFIX}${encodeURIComponent(portableOf(name))}`,
        };
      }
      const target = resolve(definitions[name] ?? {}, [...stack, name]) as JsonSchema;
      return { ...target, ...mapValues(rest, stack, resolve) };
    }
    const resolved = mapValues(node as JsonSchema, stack, resolve);
    const members = (node as JsonSchema).anyOf;
    if (Array.isArray(members) && titled.size > 0)
      resolved.anyOf = members.map((member, i) => {
        const title = titleOf(member);
        const inlined = (resolved.anyOf as unknown[])[i] as JsonSchema;
        return title !== undefined && titled.has(title) ? { title, ...inlined } : inlined;
      });
    return resolved;
  };

  const { definitions: _definitions, $schema: _schema, ...root } = schema;
  const result = resolve(root, []) as JsonSchema;
  // Recursive definitions, resolved with themselves on the stack so their self-references stay refs.
  for (const name of kept.keys()) kept.set(name, resolve(definitions[name], [name]));
  const definitionsKept = [...kept].map(([name, schema]) => [portableOf(name), schema] as const);
  return kept.size > 0 ? { ...result, definitions: Object.fromEntries(definitionsKept) } : result;
}

/** The type name an `anyOf` member refers to (without a module qualifier), if it is a reference. */
function titleOf(member: unknown): string | undefined {
  const ref = (member as JsonSchema | undefined)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith(PREFIX)) return undefined;
  return decodeURIComponent(ref.slice(PREFIX.length)).replace(MODULE_QUALIFIER, "");
}

function mapValues(
  node: JsonSchema,
  stack: readonly string[],
  resolve: (n: unknown, s: readonly string[]) => unknown,
): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = resolve(value, stack);
  return out;
}
