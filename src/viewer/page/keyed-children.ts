// A list's children drawn from items and drawn again as the items change, each kept by its key: an item
// shown as it was keeps its element (so the focus in it, a typed text, a selection and the scroll position
// stay), one that changed is brought up to date in place or drawn again where it was, new ones go where they
// belong and gone ones go. The element that has the focus is never moved (a moved element loses it): the
// others are placed around it.

/** How {@link keyedChildren} draws items. */
export interface KeyedOptions<T> {
  /** What an item is across draws (a run's file); `place` is its place among the items drawn. */
  readonly key: (item: T, place: number) => unknown;
  /** The element of `item`, the `index`th of the whole list. */
  readonly render: (item: T, index: number) => Node;
  /** Whether `now` shows as `shown`, the item of the same key drawn before, did: its element is kept. */
  readonly same?: (shown: T, now: T) => boolean;
  /** Brings `node`, drawn for an item of the same key, up to date with `now` in place (else it is drawn again). */
  readonly patch?: (node: Node, now: T) => void;
}

/** What takes the focus in an element drawn again. */
const FOCUSABLE = "button, input, a[href], [tabindex]";

/**
 * Draws items into `parent` (which holds nothing else), keeping what it can of the last draw; `first` is
 * the index of the first item in the whole list (a page's start).
 */
export function keyedChildren<T>(
  parent: Element,
  options: KeyedOptions<T>,
): (items: readonly T[], first?: number) => void {
  let shown = new Map<unknown, { readonly item: T; readonly node: Node }>();
  return (items, first = 0) => {
    const drawn = new Map<unknown, { readonly item: T; readonly node: Node }>();
    const nodes = items.map((item, place) => {
      const key = options.key(item, place);
      const old = shown.get(key);
      let node = old?.node;
      if (old && !options.same?.(old.item, item)) {
        if (options.patch) options.patch(old.node, item);
        else node = replace(old.node, options.render(item, first + place));
      }
      node ??= options.render(item, first + place);
      drawn.set(key, { item, node });
      return node;
    });
    for (const [key, { node }] of shown)
      if (drawn.get(key)?.node !== node) node.parentNode?.removeChild(node);
    shown = drawn;
    place(parent, nodes);
  };
}

/** `node` in `old`'s place; the focus that was in `old` goes to the first thing in `node` that takes it. */
function replace(old: Node, node: Node): Node {
  const focused = old.contains(document.activeElement);
  old.parentNode?.replaceChild(node, old);
  if (focused && node instanceof HTMLElement) {
    const target = node.matches(FOCUSABLE) ? node : node.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus({ preventScroll: true });
  }
  return node;
}

/** Puts `nodes` in order as `parent`'s children without moving the one that holds the focus. */
function place(parent: Element, nodes: readonly Node[]): void {
  const anchor = nodes.findIndex(
    (node) => node.parentNode === parent && node.contains(document.activeElement),
  );
  nodes.forEach((node, i) => {
    if (i === anchor) {
      // What stands before it and belongs after it goes after it.
      while (parent.childNodes[i] !== node) parent.insertBefore(parent.childNodes[i]!, node.nextSibling);
      return;
    }
    const at = parent.childNodes[i] ?? null;
    if (at !== node) parent.insertBefore(node, at);
  });
}
