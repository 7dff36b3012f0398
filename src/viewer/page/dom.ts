// The page's few DOM helpers. Everything a log holds reaches the page as text nodes, never as HTML: a tool
// result can be markup, and it is shown, not run.
import { cutOf, type MayHoldCutValues } from "../../run-log/cut-value.js";
import { keyedChildren, type KeyedOptions } from "./keyed-children.js";

/** What `h` takes as children: nodes, text, nested lists; `false`, `null` and `undefined` add nothing. */
export type Child = Node | string | number | false | null | undefined | readonly Child[];

type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** An element with attributes (`on…` ones are listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name === "className" ? "class" : name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A number for reading: `12,345`. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** `n` and its noun, plural unless one: `1 tool`, `2 tools`, `1,200 steps`. */
export function counted(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** What a step's tool set gained and lost, in counts: `+2`, `−1`, `+2 −1` (a side with none is left out). */
export function changeCounts(added: number, removed: number): string {
  return [added > 0 && `+${count(added)}`, removed > 0 && `−${count(removed)}`].filter(Boolean).join(" ");
}

/** USD: six decimals below a cent, else four. */
export function usd(amount: number): string {
  return `$${amount.toFixed(amount < 0.01 ? 6 : 4)}`;
}

/**
 * A priced sum of calls' costs as the page says it: USD, and `+ unknown` when a call's provider reported no
 * usage (`costUnknown`): `$0.0100 + unknown`, or `unknown` when no call's cost is known, never `$0` for it.
 */
export function costText(cost: number | undefined, unknown: boolean | undefined): string {
  if (!unknown) return usd(cost ?? 0);
  return cost ? `${usd(cost)} + unknown` : "unknown";
}

/**
 * A priced sum as an item of a line (a step's, a run's in the list, a conversation's) says it: the amount
 * alone (`$0.0100`), but `cost unknown` or `cost $0.0100 + unknown` where a call's cost is unknown, since
 * `unknown` alone does not say what is.
 */
export function costItem(cost: number | undefined, unknown: boolean | undefined): string {
  return `${unknown ? "cost " : ""}${costText(cost, unknown)}`;
}

/** A share as a whole percentage. */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** JSON for reading (two-space indent); text stays text. */
export function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * `✂ cut by the run log: the first 1,000,000 of 52,428,814 characters kept`, for a value the log holds
 * cut (its record's `cut` names the field); undefined for a value held whole.
 */
export function cutWords(record: MayHoldCutValues, field: string): string | undefined {
  const cut = cutOf(record, field);
  return cut && `✂ cut by the run log: the first ${count(cut.kept)} of ${count(cut.length)} characters kept`;
}

/** {@link cutWords} as a line under the value; nothing for a value held whole. */
export function cutNote(record: MayHoldCutValues, field: string): Child {
  const words = cutWords(record, field);
  return words !== undefined && h("p", { className: "cut-value" }, words);
}

/** Text cut to `max` characters, with a button that shows the rest. */
export function longText(className: string, text: string, max = 2_000): HTMLElement {
  const pre = h("pre", { className }, text.length > max ? `${text.slice(0, max)}…` : text);
  if (text.length <= max) return pre;
  const more = h(
    "button",
    { type: "button", className: "more" },
    `show all ${count(text.length)} characters`,
  );
  more.addEventListener("click", () => {
    pre.textContent = text;
    more.remove();
  });
  return h("div", {}, pre, more);
}

/** Options of {@link paged}. */
export interface PagedOptions {
  readonly pageSize: number;
  /** What the items are, for the counter: "steps", "providers". */
  readonly noun: string;
  readonly className?: string;
  readonly page?: number;
  readonly onPage?: (page: number) => void;
  /** The list element; default `ul`. */
  readonly tag?: "ul" | "ol";
}

/**
 * A long list shown a page at a time (the DOM holds one page, whatever the length), with previous and next
 * buttons; `n`/`p` on the page turn the first such list's pages (see keys.ts).
 */
export function paged<T>(
  items: readonly T[],
  render: (item: T, index: number) => Node,
  options: PagedOptions,
): HTMLElement {
  return pagedList(items, render, options).element;
}

/** A {@link paged} list that takes new items (a live run's steps) and keeps what did not change. */
export interface PagedList<T> {
  readonly element: HTMLElement;
  /**
   * Shows `items` instead, on the same page. An item `same` as the one shown with its key keeps its element
   * (the focus in it, its state, the scroll position); one that changed is brought up to date (`patch`) or
   * drawn again, and the focus that was in it goes to the first thing in it that takes focus.
   */
  update(items: readonly T[]): void;
}

/** How a {@link pagedList} tells its items apart across updates: by default, by their place on the page. */
export type PagedListOptions<T> = PagedOptions & Partial<Pick<KeyedOptions<T>, "key" | "same" | "patch">>;

/** {@link paged}, with {@link PagedList.update}. */
export function pagedList<T>(
  initial: readonly T[],
  render: (item: T, index: number) => Node,
  options: PagedListOptions<T>,
): PagedList<T> {
  const { pageSize, noun } = options;
  let items = initial;
  const list = h(options.tag ?? "ul", { className: options.className });
  const draw = keyedChildren(list, { key: (_, place) => place, ...options, render });
  const label = h("span", { className: "pager-label" });
  const previous = h("button", { type: "button", className: "prev", "aria-label": `previous ${noun}` }, "◀");
  const next = h("button", { type: "button", className: "next", "aria-label": `next ${noun}` }, "▶");
  const nav = h("nav", { className: "pager" }, previous, label, next);
  const box = h("div", { className: "paged" }, list);
  let page = options.page ?? 0;
  const show = (to: number) => {
    const pages = Math.max(1, Math.ceil(items.length / pageSize));
    page = Math.max(0, Math.min(pages - 1, to));
    const start = page * pageSize;
    const now = items.slice(start, start + pageSize);
    draw(now, start);
    label.textContent = `${count(start + (now.length ? 1 : 0))}–${count(start + now.length)} of ${count(items.length)} ${noun}`;
    const focused = document.activeElement;
    previous.disabled = page === 0;
    next.disabled = page === pages - 1;
    // A button disabled under the focus would drop it (to the page's start): the other one takes it.
    if (focused === previous && previous.disabled) next.focus();
    if (focused === next && next.disabled) previous.focus();
    if (pages === 1) nav.remove();
    else if (!nav.isConnected) box.append(nav);
    box.dataset["pages"] = String(pages);
    options.onPage?.(page);
  };
  previous.addEventListener("click", () => show(page - 1));
  next.addEventListener("click", () => show(page + 1));
  show(page);
  return {
    element: box,
    update(now) {
      items = now;
      show(page);
    },
  };
}

/** A part of the page drawn from some values, and drawn again only when one of them changed. */
export interface Part {
  /** What is on the page: the part, or an empty placeholder (a comment) while it shows nothing. */
  readonly node: Node;
  /** Draws the part with `render`, unless `values` are those it was drawn from (each the same, by identity). */
  draw(values: readonly unknown[], render: () => Node | false | undefined): void;
}

/** A {@link Part}, empty until drawn. */
export function part(): Part {
  let node: Node = document.createComment("");
  let drawnFrom: readonly unknown[] | undefined;
  return {
    get node() {
      return node;
    },
    draw(values, render) {
      if (drawnFrom?.length === values.length && values.every((v, i) => Object.is(v, drawnFrom![i]))) return;
      drawnFrom = values;
      const now = render() || document.createComment("");
      node.parentNode?.replaceChild(now, node);
      node = now;
    },
  };
}
