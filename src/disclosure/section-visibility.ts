import { SectionVisibility } from "../loop/snapshot/section-visibility.js";

// The values live with the run that stores them (see `loop/snapshot/section-visibility.ts`); users and
// the disclosure layer read them here.
export { SectionVisibility };

/** Template parameters: `${name}` placeholders are filled from them. */
export type PromptParams = Readonly<Record<string, unknown>>;

/** A section's own visibility: fixed, or decided from the parameters. */
export type VisibilityRule = SectionVisibility | ((params: PromptParams) => SectionVisibility);

/** Visibility overrides by dotted section key. */
export type VisibilityOverrides = Readonly<Record<string, SectionVisibility>>;

/** A frozen copy of the overrides, to resume a run where another left off. */
export type VisibilitySnapshot = VisibilityOverrides;
