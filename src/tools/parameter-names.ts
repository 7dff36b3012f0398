/**
 * The declared parameter names of a function, read from its source text. Decorator metadata cannot give
 * names (and esbuild emits none), so this is how tool input `{ limit: 5 }` reaches the right position
 * when no generated schema lists the order.
 *
 * Handles defaults containing commas, brackets, strings and arrow functions; a destructured or rest
 * parameter has no single name and yields `undefined` for that position.
 */
export function parameterNames(fn: Function): (string | undefined)[] {
  return parameterTexts(fn).map((param) => identifierOf(param.split("=")[0] ?? ""));
}

/**
 * Whether `fn`, found under the method name `methodName`, is a wrapper that another decorator put around a
 * tool method (logging, tracing, retries) and that forwards the method's arguments: its only parameter is
 * a rest parameter (`(...args)`), and it is not the method as its class declares it (a function
 * expression, an arrow, a method of another name). Its source says nothing of the method's own
 * parameters, so they are taken from the method's schema.
 */
export function forwardsArguments(fn: Function, methodName: string): boolean {
  const texts = parameterTexts(fn);
  return texts.length === 1 && texts[0]!.trim().startsWith("...") && !declaredAs(fn, methodName);
}

/**
 * The rest parameter the tool method itself declares (`tag(id, ...tags)`, `run(...xs)`), by its name (its
 * source text when it is a pattern), or undefined. A wrapper's `(...args)` (see {@link forwardsArguments})
 * is not the method's. A tool's input is one object keyed by parameter names, so no schema can reach one.
 */
export function ownRestParameter(fn: Function, methodName: string): string | undefined {
  const texts = parameterTexts(fn);
  const last = texts.at(-1)?.trim();
  if (!last?.startsWith("...") || forwardsArguments(fn, methodName)) return undefined;
  const rest = last.slice(3).split("=")[0]!.trim();
  return identifierOf(rest) ?? rest;
}

// What may come before a class method's name in its source: `async`, `*`, both.
const METHOD_MODIFIERS = /^(?:async\s+)?(?:\*\s*)?/;

/**
 * Whether `fn`'s source is a method definition named `methodName` (`run(`, `async *run(`, `"find-one"(`,
 * `["find-one"](`), as the class body declares it; a function expression, an arrow or a method of another
 * name (a wrapper's `[key](...args)`) is not.
 */
function declaredAs(fn: Function, methodName: string): boolean {
  const source = Function.prototype.toString.call(fn);
  const open = source.indexOf("(");
  if (open === -1) return false;
  const name = source.slice(0, open).trim().replace(METHOD_MODIFIERS, "");
  const bare = /^\[(.*)\]$/s.exec(name)?.[1]?.trim() ?? name;
  const quoted = /^(["'])(.*)\1$/s.exec(bare);
  return (quoted ? quoted[2] : bare) === methodName && !/^(?:function|async\s+function)\b/.test(name);
}

/**
 * Whether this code runs with its parameter names mangled: a bundle made with `--minify` that includes
 * entity-tools (as `esbuild --bundle --minify` does). A tool method's parameter names then say nothing
 * of its schema's, so they are not compared.
 */
export const parameterNamesMangled: boolean =
  parameterNames(function (parameterNameProbe: unknown) {
    return parameterNameProbe;
  })[0] !== "parameterNameProbe";

/** Each declared parameter's source text (name, pattern, default), in order. */
function parameterTexts(fn: Function): string[] {
  const source = Function.prototype.toString.call(fn);
  const open = source.indexOf("(");
  const arrow = source.indexOf("=>");
  // `x => ...` has no parentheses around its single parameter.
  if (open === -1 || (arrow !== -1 && arrow < open)) {
    const single = source
      .slice(0, arrow === -1 ? undefined : arrow)
      .replace(/^async\s+/, "")
      .trim();
    return single ? [single] : [];
  }
  return splitTopLevel(source, open + 1);
}

function identifierOf(param: string): string | undefined {
  const trimmed = param.trim();
  const match = /^[A-Za-z_$][\w$]*/.exec(trimmed);
  return match && match[0].length === trimmed.length ? match[0] : undefined;
}

/** Splits the parameter list starting at `start` (just after "(") on top-level commas. */
function splitTopLevel(source: string, start: number): string[] {
  const params: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = start; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === '"' || ch === "'" || ch === "`") {
      const end = skipString(source, i);
      current += source.slice(i, end);
      i = end - 1;
      continue;
    }
    if (ch === "/" && (source[i + 1] === "/" || source[i + 1] === "*")) {
      i = skipComment(source, i) - 1;
      continue;
    }
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    if (ch === ")" || ch === "]" || ch === "}") {
      if (depth === 0) {
        if (current.trim()) params.push(current);
        return params;
      }
      depth--;
    }
    if (ch === "," && depth === 0) {
      params.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  return params;
}

function skipString(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === quote) return i + 1;
  }
  return source.length;
}

function skipComment(source: string, start: number): number {
  if (source[start + 1] === "/") {
    const end = source.indexOf("\n", start);
    return end === -1 ? source.length : end;
  }
  const end = source.indexOf("*/", start + 2);
  return end === -1 ? source.length : end + 2;
}
