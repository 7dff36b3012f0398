/** Up to `limit` names closest to `wanted` (edit distance, with shared-substring matches first). */
export function closestNames(wanted: string, names: readonly string[], limit = 3): string[] {
  const lower = wanted.toLowerCase();
  return names
    .map((name) => {
      const candidate = name.toLowerCase();
      const contains = candidate.includes(lower) || lower.includes(candidate);
      return { name, score: editDistance(lower, candidate) - (contains ? 100 : 0) };
    })
    .filter(({ name, score }) => score < Math.max(4, Math.ceil(Math.max(name.length, wanted.length) / 2)))
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map(({ name }) => name);
}

function editDistance(a: string, b: string): number {
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
