/**
 * The segments of a URL path, empty ones dropped and percent-escapes decoded; null when an
 * escape is malformed. Authorization (auth/requestInfo.ts) and routing (endpoints/route.ts) both
 * read every request's path: the last path's segments are kept, so it is split once. Shared:
 * callers must not mutate the array.
 */
let lastPath: string | undefined;
let lastSegments: readonly string[] | null = null;

export function pathSegments(path: string): readonly string[] | null {
  if (path === lastPath) return lastSegments;
  let segments: readonly string[] | null;
  try {
    segments = path.split('/').filter((s) => s !== '').map((s) => (s.includes('%') ? decodeURIComponent(s) : s));
  } catch {
    segments = null;
  }
  lastPath = path;
  lastSegments = segments;
  return segments;
}
