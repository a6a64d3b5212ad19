/**
 * How test processes run the CLI: from a bundle of the sources built once per
 * test run (global-setup.ts), which starts a `serve` in about half the CPU
 * time of `node --import tsx` and a short command in a fifth (BENCHMARKS.md,
 * "CI time: plain files"), while the sources through tsx stay the fallback:
 * a spawn takes the bundle only when no source file it was made of changed
 * after it was built (a watch run, an edit during a run), so a test never
 * runs stale code. The bundle is scripts/cli-bundle.js's, the one `npx
 * leadlight` runs, in a folder of its own (cli-bundle.test.ts rebuilds the
 * released one while other files run).
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SOURCE_ENTRY = path.join(ROOT, 'src', 'cli', 'main.ts');
/** three folders below the root, as dist/bundle/cli: the paths our modules compute from their own land in dist/ */
export const TEST_BUNDLE_DIRECTORY = path.join(ROOT, 'dist', 'bundle', 'test-cli');
/** the bundle's build time and the files it was made of, written last: no manifest, no bundle */
export const TEST_BUNDLE_MANIFEST = path.join(TEST_BUNDLE_DIRECTORY, 'sources.json');

export interface BundleManifest {
  builtAt: number;
  inputs: string[];
}

function bundleIsCurrent(): boolean {
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(TEST_BUNDLE_MANIFEST, 'utf8')) as BundleManifest;
  } catch {
    return false;
  }
  return manifest.inputs.every((input) => {
    const stat = fs.statSync(path.join(ROOT, input), { throwIfNoEntry: false });
    return stat !== undefined && stat.mtimeMs <= manifest.builtAt;
  });
}

/** node's arguments before the CLI's own: the current bundle's entry, or the sources through tsx. */
export function cliEntry(): string[] {
  return bundleIsCurrent() ? [path.join(TEST_BUNDLE_DIRECTORY, 'main.js')] : ['--import', 'tsx', SOURCE_ENTRY];
}
