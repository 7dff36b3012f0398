// The disclosure state a run carries: section visibility overrides by dotted key. It is run state (kept
// across restarts, written into every snapshot, read back on resume), so it lives with the run; the
// disclosure layer above is what changes it.
import type { SectionVisibility } from "../snapshot/section-visibility.js";

/** Visibility overrides by dotted section key. */
export type SectionOverrides = Readonly<Record<string, SectionVisibility>>;

/** The events that change visibility overrides. */
export type VisibilityEvent =
  | {
      readonly type: "SetVisibilityOverride";
      readonly sectionKey: string;
      readonly visibility: SectionVisibility;
    }
  | { readonly type: "ClearVisibilityOverride"; readonly sectionKey: string }
  | { readonly type: "ClearAllVisibilityOverrides" };

/** The pure reducer behind {@link VisibilityStore}. */
export function visibilityReducer(state: SectionOverrides, event: VisibilityEvent): SectionOverrides {
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
 * snapshotted and a later run started from it (see `Run.fromSnapshot`).
 */
export class VisibilityStore {
  private state: SectionOverrides;

  constructor(initial: SectionOverrides = {}) {
    this.state = Object.freeze({ ...initial });
  }

  dispatch(event: VisibilityEvent): void {
    this.state = Object.freeze(visibilityReducer(this.state, event));
  }

  snapshot(): SectionOverrides {
    return this.state;
  }
}
