/**
 * A request's headers as the simulation reads them: names in lower case, one value per header
 * line — two X-Remote-Group lines are two groups, one `a,b` line is one group (Go's net/http keeps
 * them apart the same way). Shared by the HTTP server and the in-memory transport of the testing kit.
 */
import type { IncomingMessage } from 'node:http';

export function headersOf(req: IncomingMessage): Record<string, string | string[]> {
  const headers = Object.create(null) as Record<string, string | string[]>;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const before = headers[name];
    headers[name] = before === undefined ? value : typeof before === 'string' ? [before, value] : [...before, value];
  }
  return headers;
}
