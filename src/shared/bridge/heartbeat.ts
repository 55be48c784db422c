/**
 * How soon a page knows that the till service went silent: a hub whose cable was pulled or whose
 * Wi-Fi went leaves the connection open with nothing more arriving, and a closed one is noticed
 * at once anyway. The service writes a frame on every open event stream this often, and a page
 * that hears nothing for STREAM_SILENCE_MS calls the link lost: every "live" claim goes, the red
 * alert shows and what needs the service is disabled (issue 21: within 2 s), then it retries.
 */
export const STREAM_HEARTBEAT_MS = 250;

/**
 * Six heartbeats: a service busy for up to 1.25 s (a long query blocking its event loop) still
 * counts as there; a silent one is called lost 1.25–1.5 s after its last frame, which leaves the
 * page half a second to show it within 2 s.
 */
export const STREAM_SILENCE_MS = 1_500;
