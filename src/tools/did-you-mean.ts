// The suggestion is advice, so its cost is capped whatever the input: the model chooses what it sends
// (a 20 kB junk handle), and ids choose how long live handles are (10 kB ids). Only the first
// MAX_COMPARED_CHARS characters of each side are compared, and a candidate whose length alone rules it
// out is skipped before any edit distance is run, so one suggestion costs at most
// `names.length × MAX_COMPARED_CHARS²` steps.

/** How many characters of the wanted text and of each name are compared. */
export const MAX_COMPARED_CHARS = 64;

/** A counter of edit-distance steps, for callers (and tests) that check the work stays bounded. */
export interface SuggestionWork {
  cells: number;
}

/** Up to `limit` names closest to `wanted` (edit distance, with shared-substring matches first). */
export function closestNames(
  wanted: string,
  names: readonly string[],
  limit = 3,
  work: SuggestionWork = { cells: 0 },
): string[] {
  const lower = wanted.slice(0, MAX_COMPARED_CHARS).toLowerCase();
  const ranked: { name: string; score: number }[] = [];
  for (const name of names) {
    const candidate = name.slice(0, MAX_COMPARED_CHARS).toLowerCase();
    const contains = candidate.includes(lower) || lower.includes(candidate);
    const threshold = Math.max(4, Math.ceil(Math.max(candidate.length, lower.length) / 2));
    // The edit distance is at least the difference in length: such a candidate cannot come close.
    if (!contains && Math.abs(candidate.length - lower.length) >= threshold) continue;
    const score = editDistance(lower, candidate, work) - (contains ? 100 : 0);
    if (score < threshold) ranked.push({ name, score });
  }
  return ranked
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map(({ name }) => name);
}

function editDistance(a: string, b: string, work: SuggestionWork): number {
  work.cells += a.length * b.length;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
