/**
 * A bounded memo of a function of one string, for the ingest's per-event
 * parsing (issue 24): a site's events share a few hundred URLs and
 * User-Agents, and parsing one (`new URL`, isbot's pattern, bowser) costs
 * more than the rest of what the event's counting does with it. The map is
 * emptied when full, so a stream of distinct values costs one parse each
 * and never more memory than `size` answers.
 */
export function memoize<T>(compute: (key: string) => T, size: number): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    if (answers.has(key)) return answers.get(key) as T;
    const answer = compute(key);
    if (answers.size >= size) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}
