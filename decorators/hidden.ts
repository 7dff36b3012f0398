import { whenClassTransformerLoads } from "../src/lazy/class-transformer.js";
import { DecoratorMisuseError, memberLabel } from "./decorator-misuse-error.js";
import { isStandardCall } from "./standard-decorators.js";

// Hiding goes through class-transformer's own metadata (its `@Exclude`), the one store the result
// serializer reads: a field hidden here is dropped wherever class-transformer turns an object into JSON,
// nested objects included. Only the way the class and field are learned differs between decorator modes.
// class-transformer is not loaded at import: a hidden field is recorded here, and written to its metadata
// as soon as it loads (which the first hidden field starts, and which happens before any serialization).

/**
 * Keeps a field away from the model: it never appears in a tool result, an error result or a snapshot.
 * The same as class-transformer's `@Exclude()`, but it also works as a TC39 standard decorator (the
 * TypeScript default), where `@Exclude()` fails to compile and throws when the class loads.
 *
 * @example
 * ```ts
 * @ToolProvider()
 * export class Customer {
 *   @Hidden() orders: OrderRepository;
 *   ...
 * }
 * ```
 */
export function Hidden(): HiddenDecorator {
  return ((...args: unknown[]) => {
    if (isStandardCall(args)) {
      const [, context] = args;
      if ((context.kind !== "field" && context.kind !== "accessor") || context.static) {
        throw new DecoratorMisuseError(
          `@Hidden on ${String(context.name)}: only instance fields can be hidden (a ${context.static ? "static " : ""}${context.kind} is never sent to the model)`,
        );
      }
      if (context.private || typeof context.name === "symbol") return; // never serialized anyway
      const name = context.name;
      // A field decorator never sees its class; its initializer runs in each new instance, which does.
      context.addInitializer?.(function (this: unknown) {
        hideField((this as object).constructor, name);
      });
      return;
    }
    const [target, propertyKey] = args as [object, string | symbol];
    if (typeof target === "function") {
      throw new DecoratorMisuseError(
        `@Hidden on static ${memberLabel(target, propertyKey)}: only instance fields can be hidden`,
      );
    }
    if (typeof propertyKey === "string") hideField(target.constructor, propertyKey);
  }) as HiddenDecorator;
}

/** `@Hidden()`'s type: a legacy property decorator and a standard field (or accessor) decorator. */
export type HiddenDecorator = PropertyDecorator &
  ((
    value: undefined | ClassAccessorDecoratorTarget<unknown, unknown>,
    context: ClassFieldDecoratorContext | ClassAccessorDecoratorContext,
  ) => void);

const hidden = new WeakMap<Function, Set<string>>();

/**
 * Hides the field `name` of `cls`'s instances (and its subclasses') from the model: what `@Hidden()`
 * does, also used for the `private` and `protected` fields the schema CLI lists. Idempotent.
 */
export function hideField(cls: Function, name: string): void {
  let names = hidden.get(cls);
  if (names?.has(name)) return;
  if (!names) hidden.set(cls, (names = new Set()));
  names.add(name);
  whenClassTransformerLoads(({ Exclude }) => Exclude()(cls, name));
}
