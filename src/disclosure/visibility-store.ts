import type { SectionVisibility, VisibilityOverrides } from "./section-visibility.js";

/** The events that change visibility overrides. */
export type VisibilityEvent =
  | {
      readonly type: "SetVisibilityOverride";
      readonly sectionKey: string;
      readonly visibility: SectionVisibility;
    }
  | { readonly type: "ClearVisibilityOverride"; readonly sectionKey: string }
  | { readonly type: "ClearAllVisibilityOverrides" };

/** A frozen copy of the overrides, to resume a run where another left off. */
export type VisibilitySnapshot = VisibilityOverrides;

/** The pure reducer behind {@link VisibilityStore}. */
export function visibilityReducer(state: VisibilityOverrides, event: VisibilityEvent): VisibilityOverrides {
  switch (event.type) {
    case "SetVisibilityOverride":
      return { ...state, [event.sectionKey]: event.visibility };
    case "ClearVisibilityOverride": {
      const { [event.sectionKey]: _removed, ...rest } = state;
      return rest;
    }
    case "ClearAllVisibilityOverrides":
      return {};
  }
}

/**
 * The visibility overrides of one run, changed only through events, so the state of a run can be
 * snapshotted and a later run restored to it.
 */
export class VisibilityStore {
  private state: VisibilityOverrides;

  constructor(initial: VisibilitySnapshot = {}) {
    this.state = Object.freeze({ ...initial });
  }

  dispatch(event: VisibilityEvent): void {
    this.state = Object.freeze(visibilityReducer(this.state, event));
  }

  get(sectionKey: string): SectionVisibility | undefined {
    return Object.hasOwn(this.state, sectionKey) ? this.state[sectionKey] : undefined;
  }

  snapshot(): VisibilitySnapshot {
    return this.state;
  }

  restore(snapshot: VisibilitySnapshot): void {
    this.state = Object.freeze({ ...snapshot });
  }
}
