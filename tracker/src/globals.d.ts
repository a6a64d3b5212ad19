/** The path events are sent to on the tracker's origin: set by the build, replaced by the server (TRACKER_EVENTS_PATH). */
declare const EVENTS_PATH: string;
