// Types of scripts/tracker-build.js (plain JavaScript, so `npm install` can run it before anything is compiled).
export declare const ROOT: string;
export declare const TRACKER_FILE: string;
export declare const EVENTS_PATH_PLACEHOLDER: string;
export declare const MAX_GZIPPED_BYTES: number;
export declare function gzippedSize(text: string): number;
export declare function buildTracker(): Promise<{ bytes: number; gzipped: number }>;
