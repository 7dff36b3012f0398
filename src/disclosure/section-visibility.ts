/** How a prompt section is rendered: in full, or as its summary with a pointer to `read_section`. */
export const SectionVisibility = {
  FULL: "FULL",
  SUMMARY: "SUMMARY",
} as const;

export type SectionVisibility = (typeof SectionVisibility)[keyof typeof SectionVisibility];

/** Template parameters: `${name}` placeholders are filled from them. */
export type PromptParams = Readonly<Record<string, unknown>>;

/** A section's own visibility: fixed, or decided from the parameters. */
export type VisibilityRule = SectionVisibility | ((params: PromptParams) => SectionVisibility);

/** Visibility overrides by dotted section key. */
export type VisibilityOverrides = Readonly<Record<string, SectionVisibility>>;

/** A frozen copy of the overrides, to resume a run where another left off. */
export type VisibilitySnapshot = VisibilityOverrides;
