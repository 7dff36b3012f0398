// Keys of the page (also listed in its footer): j/k or the arrows move between steps (or runs, in the run
// list), Enter opens one, n/p turn the steps' page, [ and ] open the previous and next run, / filters tools.

/** Listens for the page's keys; `step(±1)` opens the next or previous run. */
export function listenToKeys(openRun: (delta: number) => void): void {
  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
    const move = (delta: number) => {
      const inList = target.closest("#runs") !== null;
      const items = [...document.querySelectorAll<HTMLElement>(inList ? ".run-item" : ".step-head")];
      const at = items.indexOf(target);
      items[at === -1 ? 0 : Math.max(0, Math.min(items.length - 1, at + delta))]?.focus();
    };
    const turn = (which: "next" | "prev") =>
      document.querySelector<HTMLButtonElement>(`#run .steps + .pager .${which}`)?.click();
    switch (event.key) {
      case "j":
      case "ArrowDown":
        move(1);
        break;
      case "k":
      case "ArrowUp":
        move(-1);
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
      case "/":
        document.querySelector<HTMLInputElement>("#run input[type=search]")?.focus();
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}
