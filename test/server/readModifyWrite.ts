/**
 * Read-modify-write clients over HTTP, shared by test/server/concurrency.test.ts and the
 * benchmark's reliability section (bench/reliability.bench.ts): node's own HTTP client, counters
 * in ConfigMaps incremented by GET, change, PUT with the resourceVersion read (again on a 409),
 * watchers following the collection, and the checks of what must hold — no acknowledged
 * increment lost, every 409 the Conflict Status, every watcher shown every write once, in
 * resourceVersion order. Nothing here knows which server answers.
 */
import { Agent, request } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly body: any;
}

export interface Endpoint {
  /** `http://host:port`. */
  readonly url: string;
  readonly token: string;
  readonly agent: Agent;
}

export function call(to: Endpoint, method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${to.url}${path}`,
      {
        method,
        agent: to.agent,
        headers: { authorization: `Bearer ${to.token}`, accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (e) {
            reject(new Error(`${method} ${path}: ${res.statusCode} with a body that is not JSON (${(e as Error).message})`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export interface WatchEvent {
  readonly type: string;
  readonly object: { metadata: { name: string; resourceVersion: string }; data?: { count?: string } };
}

export interface Watcher {
  readonly events: WatchEvent[];
  close(): void;
}

/** A watch of `collection` from `rv`: its events as they arrive (one JSON object per line). */
export function watch(to: Endpoint, collection: string, rv: string): Watcher {
  const events: WatchEvent[] = [];
  let pending = '';
  const req = request(`${to.url}${collection}?watch=true&resourceVersion=${rv}`, { agent: to.agent, headers: { authorization: `Bearer ${to.token}` } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line !== '') events.push(JSON.parse(line) as WatchEvent);
    });
  });
  // Closing the watch destroys the request: that error is the end of the stream, not a failure.
  req.on('error', () => undefined);
  req.end();
  return { events, close: () => req.destroy() };
}

/** kube-apiserver's answer to a PUT carrying a resourceVersion that is no longer current. */
export const conflictStatus = (name: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
  reason: 'Conflict',
  details: { name, kind: 'configmaps' },
  code: 409,
});

/** An acknowledged increment: the PUT answered 200 with this count and resourceVersion. */
export interface Ack {
  readonly name: string;
  readonly count: number;
  readonly rv: string;
}

export interface Conflicts {
  n: number;
  /** 409s whose body is not the Conflict Status. */
  readonly wrong: Answer[];
}

/**
 * One client: read `name`, add one to its count, write it back with the version read; again on
 * a 409, until `increments` writes were acknowledged (or `deadline`, a Date.now() time, passed).
 * Any other answer throws.
 */
export async function writer(to: Endpoint, collection: string, name: string, increments: number, acks: Ack[], conflicts: Conflicts, deadline = Infinity): Promise<void> {
  let done = 0;
  while (done < increments && Date.now() < deadline) {
    const read = await call(to, 'GET', `${collection}/${name}`);
    if (read.status !== 200) throw new Error(`GET ${name}: ${read.status} ${JSON.stringify(read.body)}`);
    const count = Number(read.body.data.count) + 1;
    const put = await call(to, 'PUT', `${collection}/${name}`, { ...read.body, data: { count: String(count) } });
    if (put.status === 200) {
      acks.push({ name, count, rv: put.body.metadata.resourceVersion as string });
      done++;
    } else if (put.status === 409) {
      conflicts.n++;
      if (JSON.stringify(put.body) !== JSON.stringify(conflictStatus(name))) conflicts.wrong.push(put);
    } else throw new Error(`PUT ${name}: ${put.status} ${JSON.stringify(put.body)}`);
  }
}

/**
 * Acknowledged increments the end state lacks: per counter, the acknowledged writes less its
 * final count (a final count beyond them, a write applied but never acknowledged, counts too).
 */
export function lostUpdates(acks: readonly Ack[], finals: ReadonlyMap<string, number>): number {
  let lost = 0;
  for (const [name, final] of finals) lost += Math.abs(acks.filter((a) => a.name === name).length - final);
  return lost;
}

/** Whether the acknowledged counts of `name` are 1, 2, 3, … each once: no two writers built on the same read. */
export function eachCountOnce(acks: readonly Ack[], name: string): boolean {
  const counts = acks.filter((a) => a.name === name).map((a) => a.count).sort((x, y) => x - y);
  return counts.every((c, i) => c === i + 1);
}

/** The acknowledged writes in resourceVersion order, as `name@rv=count`: what every watcher must see. */
export function expectedEvents(acks: readonly Ack[]): string[] {
  return [...acks].sort((a, b) => Number(a.rv) - Number(b.rv)).map((a) => `${a.name}@${a.rv}=${a.count}`);
}

/**
 * What a watcher saw of the writes, as `name@rv=count`; whether their resourceVersions strictly
 * increase; and what came that is neither MODIFIED nor a bookmark.
 */
export function seenEvents(w: Watcher): { readonly modified: string[]; readonly ordered: boolean; readonly others: WatchEvent[] } {
  const modified = w.events.filter((e) => e.type === 'MODIFIED');
  const rvs = modified.map((e) => Number(e.object.metadata.resourceVersion));
  return {
    modified: modified.map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}=${e.object.data?.count}`),
    ordered: rvs.every((rv, i) => i === 0 || rv > rvs[i - 1]!),
    others: w.events.filter((e) => e.type !== 'MODIFIED' && e.type !== 'BOOKMARK'),
  };
}

export async function until(ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}
