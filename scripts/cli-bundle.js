// Bundles the CLI (src/cli/main.ts) with esbuild into dist/bundle/cli/: one
// entry file and one chunk per command, so `npx leadlight <command>` reads a
// few files instead of some 640 modules (issue 14: resolving and reading each
// module was most of a command's start). Only pure-JavaScript libraries with
// many small modules are bundled (BUNDLED below); every other package stays a
// plain import from node_modules (native addons, workers, files read beside
// their modules). The chunks sit three folders below the root, like
// dist/http/plugins/, so paths our modules compute from import.meta.url (the
// dashboard, the tracker script) still land in dist/. `npm run build` runs it
// after tsc; bin/leadlight.js starts the bundle when it is there.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_BUNDLE_DIRECTORY = path.join(ROOT, 'dist', 'bundle', 'cli');

/** bundled: many small ESM modules each, no files read beside them, no native code */
const BUNDLED = new Set(['kysely', '@sinclair/typebox', 'uuid', 'commander']);

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every bare import outside BUNDLED stays an import from node_modules. */
const externalPackages = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || BUNDLED.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Builds the bundle into `outdir` (default dist/bundle/cli; the tests build
 * their own copy beside it, three folders below the root too) and answers
 * esbuild's metafile: the source files it was made of.
 */
export async function buildCliBundle(outdir = CLI_BUNDLE_DIRECTORY) {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: {
      main: path.join(ROOT, 'src', 'cli', 'main.ts'),
      // the import's parsing thread, started by URL beside the module that starts it (parse-in-worker.ts)
      'import-parse.worker': path.join(ROOT, 'src', 'services', 'tenant', 'import', 'import-parse.worker.ts'),
    },
    outdir,
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    plugins: [externalPackages],
    sourcemap: true,
    legalComments: 'none',
    // commander is CommonJS: its require() calls of node: modules need a require in the ESM bundle
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module';\nconst require = createRequireOfBundle(import.meta.url);" },
    logLevel: 'warning',
    metafile: true,
  });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCliBundle();
}
