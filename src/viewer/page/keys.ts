// Keys of the page (also listed in its footer): j/k or the arrows move between steps (or runs, in the run
// list), Enter opens one, n/p turn the steps' page, [ and ] open the previous and next run, / filters tools.
// j/k go on from the step the focus is in (on its line, or in what it opened), or from the first step in
// view; the arrows move only from a step's line or a run (elsewhere, they scroll the page, as a reader
// expects after a click in a call's result). / filters the tools of the step the focus is in, opening it.

/** Listens for the page's keys; `step(±1)` opens the next or previous run. */
export function listenToKeys(openRun: (delta: number) => void): void {
  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
    const inList = target.closest("#runs") !== null;
    const items = () => [...document.querySelectorAll<HTMLElement>(inList ? ".run-item" : ".step-head")];
    /** The step the focus is in (its line, or anything it opened). */
    const step = target.closest<HTMLElement>("#run .step");
    const move = (delta: number) => {
      const all = items();
      const from = step?.querySelector<HTMLElement>(".step-head") ?? target;
      const at = all.indexOf(from);
      if (at !== -1) all[Math.max(0, Math.min(all.length - 1, at + delta))]?.focus();
      else all.find((item) => item.getBoundingClientRect().bottom > 0)?.focus();
    };
    /** An arrow moves from a step's line or a run only; anywhere else it scrolls, as it does natively. */
    const arrow = (delta: number) => {
      if (!items().includes(target)) return false;
      move(delta);
      return true;
    };
    const turn = (which: "next" | "prev") =>
      document.querySelector<HTMLButtonElement>(`#run .steps + .pager .${which}`)?.click();
    switch (event.key) {
      case "j":
        move(1);
        break;
      case "k":
        move(-1);
        break;
      case "ArrowDown":
        if (!arrow(1)) return;
        break;
      case "ArrowUp":
        if (!arrow(-1)) return;
        break;
      case "n":
        turn("next");
        break;
      case "p":
        turn("prev");
        break;
      case "]":
        openRun(1);
        break;
      case "[":
        openRun(-1);
        break;
      case "/": {
        const head = step?.querySelector<HTMLElement>(".step-head");
        if (head?.getAttribute("aria-expanded") === "false") head.click();
        (step ?? document).querySelector<HTMLInputElement>("#run input[type=search]")?.focus();
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  });
}
