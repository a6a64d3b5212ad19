/**
 * The HTML that installs the tracker (CONTRACT C5.2, C9.8), as Settings and
 * the first-run page show it: a stub that queues calls made before the
 * tracker has loaded (the tracker replays them after the page view of the
 * load), then the deferred script with the site key. One definition, so the
 * dashboard, the README's example and the tracker's replay agree.
 */

/** Defines window.leadlight's methods as queues until t.js replaces them (tracker/src/main.ts replays `q`). */
export const QUEUE_STUB =
  '<script>window.leadlight=window.leadlight||{q:[]};["identify","track","conversion","page"].forEach(function(m){window.leadlight[m]=window.leadlight[m]||function(){window.leadlight.q.push([m,[].slice.call(arguments)])}});</script>';

/** The two lines a site puts in every page: the stub, then the tracker from `origin` with this key. */
export function installSnippet(origin: string, scriptPath: string, key: string): string {
  return `${QUEUE_STUB}\n<script defer src="${origin}${scriptPath}" data-key="${key}"></script>`;
}
