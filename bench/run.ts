/**
 * `npm run bench`: runs every benchmark, prints each figure beside its physical limit measured in
 * the same run, and writes docs/benchmarks.md. Timings are never asserted in unit tests.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { storeBench, type Row } from './store.bench.ts';
import { httpBench } from './http.bench.ts';
import { watchBench } from './watch.bench.ts';
import { identityBench } from './identity.bench.ts';
import { statefulSetBench } from './statefulset.bench.ts';
import { startupBench } from './startup.bench.ts';
import { certsBench } from './certs.bench.ts';
import { scenariosBench } from './scenarios.bench.ts';
import { testingBench } from './testing.bench.ts';
import { reliabilityBench } from './reliability.bench.ts';

const progress = (msg: string): void => {
  process.stderr.write(`${msg}\n`);
};

function table(rows: readonly Row[]): string {
  const lines = ['| measure | platform-sim | baseline in the same run | target | met |', '|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.what} | ${r.value} | ${r.baseline} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

/**
 * `npm run bench -- <section>…` runs only those sections and prints their tables; docs/benchmarks.md
 * is written by a full run only, so that it always shows every figure of one run.
 */
const sections = {
  startup: startupBench,
  store: storeBench,
  http: async (p: typeof progress): Promise<Row[]> => [...(await httpBench(p)), ...(await watchBench(p))],
  identity: identityBench,
  certs: certsBench,
  statefulset: statefulSetBench,
  scenarios: scenariosBench,
  testing: testingBench,
  reliability: reliabilityBench,
} satisfies Record<string, (p: typeof progress) => Promise<Row[]>>;
type Section = keyof typeof sections;
const args = process.argv.slice(2).filter((a) => a !== '--');

// A child of a full run: one section, its rows as JSON on stdout (progress on stderr).
if (args[0] === '--rows') {
  const name = args[1] as Section;
  process.stdout.write(JSON.stringify(await sections[name](progress)));
  process.exit(0);
}

/**
 * Each section of a full run in a process of its own: a section starts with a clean heap and an
 * idle event loop, whatever the one before left (100,000 stored objects, open servers), so that
 * the in-process baselines (a bare node:http server, a plain Map) are not slowed by it either.
 */
function isolated(name: Section): Row[] {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'run.ts'), '--rows', name], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString()) as Row[];
}

const asked = args;
const unknown = asked.filter((a) => !Object.hasOwn(sections, a));
if (unknown.length > 0) {
  process.stderr.write(`unknown bench section ${unknown.join(', ')}; sections: ${Object.keys(sections).join(', ')}\n`);
  process.exit(2);
}
if (asked.length > 0) {
  for (const name of asked as Section[]) process.stdout.write(`## ${name}\n\n${table(await sections[name](progress))}\n\n`);
  process.stdout.write('(a partial run: docs/benchmarks.md is written by a full run only)\n');
  process.exit(0);
}

const startupRows = isolated('startup');
const rows = isolated('store');
const httpRows = isolated('http');
const identityRows = isolated('identity');
const certsRows = isolated('certs');
const statefulSetRows = isolated('statefulset');
const scenarioRows = isolated('scenarios');
const testingRows = isolated('testing');
const reliabilityRows = isolated('reliability');
const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;
const md = `# Benchmarks

Written by \`npm run bench\` (bench/run.ts), which builds the package first and measures the built
bundle, as users import it (bench/package.ts), each section in a fresh process. Every figure is measured beside its baseline in the
same run on the same machine (${machine}); medians of several rounds. The machine is shared and
noisy: read figures as ±20%. Unit tests never assert timings.

## Start-up and fresh worlds (issue 13)

The built package (\`npm run build\`: one bundle and its chunks) imported by a fresh node process,
beside \`node -e ''\` in the same run (medians of nine processes); the first createSimulation + GET
timed inside such a process. Then, in process, fresh simulations once one has been made: the
bootstrapped world, resource table and seeded key material are made once per seed and settings
and shared.

${table(startupRows)}

## Store and API machinery (issue 2)

In-process requests through the whole pipeline (routing, decoding, strategy, validation,
managed fields, commit, watch log) against a plain \`Map\` holding JSON strings. Stores are
filled, then virtual time moves 11 minutes so that history is compacted as on a running cluster.
A PATCH does all a GET does (the body encoded and decoded, authentication, authorization,
routing, the answer encoded) and then the write itself: the patch applied, defaults, validation,
managed fields, the new revision in the store, the watch log and the trace, and the settle after
it (the \`settle: 'manual'\` row leaves that to the caller; the \`checkInvariants\` row adds the
checkers, which judge each step by what it changed). The issue's write goals (a quarter of a
\`structuredClone\` update at 1,000 stored) are not met: where the time goes is in
[performance.md](performance.md).

${table(rows)}

## HTTP server (issue 3)

Load generators: autocannon in its own process (issue 13), then 50 keep-alive loops in the
benchmark process (node:http Agent); five alternating rounds per side (medians), against the
plain-HTTP server and a bare node:http server answering the same status, headers and JSON bytes.
Both share the machine's two cores with the load generator, so these are ceilings, not
capacities. The same GET repeated on an unchanged world is answered with the step already worked
out (docs/architecture.md, "A read is answered again"); the row "each request with its own
header" defeats that, so every answer there is worked out in full. The watch run opens 100
streaming clients, then writes 10,000 ServiceAccounts in process and checks that every client saw
every event in resourceVersion order.

${table(httpRows)}

## Identity (issue 4)

A TokenRequest followed by a TokenReview of the new token, in process, against raw jose signing
and verifying an EdDSA JWT of the same shape with a WebCrypto key. Each round trip signs and
verifies once at the edge (in Node with node:crypto's synchronous Ed25519, which gives the same
bytes as jose; in a browser with jose and WebCrypto); the rest is the pure pipeline
(authentication, RBAC, decoding, claims, world checks) once per request. With many round trips in
flight, jose overlaps its WebCrypto calls on the thread pool while the simulation works on the
main thread, so the second row is shown for information.

${table(identityRows)}

## Certificates (issue 13)

A CertificateSigningRequest created, approved and issued by the built-in signer, one after
another, in process, beside raw @peculiar/x509 work for the same result in the same run: parse a
PKCS#10 request, verify its signature, issue an Ed25519-signed certificate with the same
extensions. Each round trip uses a request made beforehand (a different key each time).

${table(certsRows)}

## StatefulSet controller

In process through the library (\`checkInvariants\` off, \`podReadyAfter: '1s'\`, settle auto): wall
time from the create request until \`status.readyReplicas\` reaches the replicas, then from a
template image change until every pod is updated and ready and
\`currentRevision = updateRevision\`, virtual time advanced in 1 s steps (medians of three runs,
each after a full garbage collection). With the default maxUnavailable of 1 a Parallel rolling
update replaces one pod per readiness delay, so 1,000 pods take 1,000 steps of virtual time: each
step costs the pods that moved (the scheduler's dirty set, views kept from round to round, a sync
that visits only the members needing a look), not every pod. OrderedReady likewise creates one
pod per step. The baseline is the least work of
making the pods: building that many pod objects of the stored shape and \`JSON.stringify\`ing them
into a plain \`Map\`. Growth is log(t_big / t_small) / log 4. Beside each wall time, the process's
CPU time over the same span (all threads, the garbage collector's included): a wall time well
above it means the shared machine was busy.

${table(statefulSetRows)}

## Scenario library

\`npm run scenarios\` as a user runs it (tsx from the sources, every scenario of scenarios/ in
process, report.html written), wall time, median of three; beside it the same command running one
scenario, which is mostly the fixed cost of starting node and tsx.

${table(scenarioRows)}

## Testing kit

Model-based runs of \`platform-sim/testing\`'s commands under \`fc.asyncModelRun\`, each on a fresh
simulation with \`checkInvariants\` on (the invariant checkers after every step), sequences drawn
once from a fixed seed; beside it, fast-check's own time to draw those sequences.

${table(testingRows)}

## Reliability (issue 16)

The fuzzer of test/fuzz (random and mutated requests, one at a time on raw sockets, every
property checked after each: docs/reliability.md, "Hostile input") against the plain-HTTP server
for 10 s, then the very same requests against a bare node:http server answering 400 to all. Then
50 clients incrementing 4 ConfigMaps by read-modify-write (GET, PUT with the resourceVersion read,
again on a 409) while 4 watchers follow them, 500 acknowledged increments a round, three rounds
alternating with a bare node:http server doing the same over a Map (the same Conflict Status,
the same watch lines): lost updates and watch delivery must hold on both.

${table(reliabilityRows)}
`;
writeFileSync(join(import.meta.dirname, '..', 'docs', 'benchmarks.md'), md);
process.stdout.write(`${table(startupRows)}\n\n${table(rows)}\n\n${table(httpRows)}\n\n${table(identityRows)}\n\n${table(certsRows)}\n\n${table(statefulSetRows)}\n\n${table(scenarioRows)}\n\n${table(testingRows)}\n\n${table(reliabilityRows)}\n\nwrote docs/benchmarks.md\n`);
