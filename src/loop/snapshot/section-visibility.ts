// The values a section's visibility takes, owned by the lowest layer that holds them: a run keeps its
// overrides (`VisibilityStore`, `src/loop/run/`), its snapshot writes them down and the snapshot's schema
// admits no other. Progressive disclosure, a layer above, renders sections by them and is where users
// import them from (`src/disclosure/section-visibility.ts`).

/** How a prompt section is rendered: in full, or as its summary with a pointer to `read_section`. */
export const SectionVisibility = {
  FULL: "FULL",
  SUMMARY: "SUMMARY",
} as const;

export type SectionVisibility = (typeof SectionVisibility)[keyof typeof SectionVisibility];
