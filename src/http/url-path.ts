/**
 * The path of a request's URL, without its query string: asked on every
 * request by the hooks that route by path (admission, the gates), so without
 * the array `split` would make each time (issue 24).
 */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
