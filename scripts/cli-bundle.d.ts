// Types of scripts/cli-bundle.js (plain JavaScript, so `npm install` can run it with nothing compiled but the sources).
import type { Metafile } from 'esbuild';

export declare const CLI_BUNDLE_DIRECTORY: string;
export declare function buildCliBundle(outdir?: string): Promise<Metafile>;
