/**
 * platform-sim/server: the HTTP server (Node only).
 */
export { serve } from './edges/http/server.ts';
export type { ServeOptions, RunningServer } from './edges/http/server.ts';
