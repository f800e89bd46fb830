/**
 * The life of a CSR as a picture: the trace rendered as an HTML timeline (objects grouped by kind,
 * one row per object, a mark per write with revision, actor and state), deterministic, and served
 * at /sim/v1/report. Simultaneous writes are separate marks, user and controller writes look
 * different, the legend says so, long names wrap, and 300 objects stay readable.
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { renderTimeline, type TraceEvent } from '../../src/index.ts';
import { sim, type Body } from '../helpers.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';

/** The marks drawn for writes, by revision: shape, x, y and what the tooltip says. */
function marks(svg: string): { shape: string; x: number; y: number; rv: number; change: string; by: string }[] {
  return [...svg.matchAll(/<(circle|path) (?:cx="([\d.]+)" cy="([\d.]+)"|d="M([\d.]+) ([\d.]+))[^>]*><title>rv (\d+) · (\w+) by (.*?) · /g)].map((m) => ({
    shape: m[1]!,
    x: Number(m[2] ?? m[4]),
    // A diamond's path starts at its top corner: its centre is below.
    y: m[3] === undefined ? Number(m[5]) : Number(m[3]),
    rv: Number(m[6]),
    change: m[7]!,
    by: m[8]!,
  })).sort((a, b) => a.rv - b.rv);
}

/** The rows part of a standalone SVG (after the legend, notes and axis). */
const bodyOf = (svg: string): string => svg.slice(svg.indexOf('<g transform='));

async function lifeOfACsr() {
  const s = await sim();
  const { request } = await s.createCertificateRequest({ commonName: 'alice' });
  const created = (await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'alice' }, spec: { request: bytesToBase64(utf8Encode(request)), signerName: 'platform.io/apiserver-client', usages: ['client auth'] } } })).body as Body;
  await s.advance('5m');
  await s.request({ method: 'PUT', path: `${csrs}/alice/approval`, body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True' }] } } });
  await s.advance('2h');
  return s;
}

describe('timeline report', () => {
  it('draws the life of a CSR: created, approved, issued by the signer, collected by the cleaner', async () => {
    const s = await lifeOfACsr();
    const html = renderTimeline(s.trace(), { title: 'The life of a CSR', resources: ['certificates/certificatesigningrequests'] });
    expect(html).toContain('<h1>The life of a CSR</h1>');
    expect(html).toContain('class="group">certificatesigningrequests · 1 object</text>');
    expect(html).toContain('class="row">alice</text>');
    expect(html).toContain('<td>certificatesigningrequests alice</td>');
    // Created and approved by the user (diamonds), issued and collected by controllers (circles).
    expect(marks(html).map((m) => `${m.shape} ${m.change} by ${m.by}`)).toEqual([
      'path ADDED by system:admin (user)',
      'path MODIFIED by system:admin (user)',
      'circle MODIFIED by csr-signer (controller)',
      'circle DELETED by csr-cleaner (controller)',
    ]);
    expect(html).toMatch(/MODIFIED by csr-signer \(controller\) · 2026-01-01T00:05:00Z · platform\.io\/apiserver-client system:admin Approved,Issued/);
    expect(html).toMatch(/DELETED by csr-cleaner \(controller\) · 2026-01-01T01:05:00Z/);
    expect(html).toContain('<td>system:admin (user)</td>');
    expect(renderTimeline((await lifeOfACsr()).trace(), { title: 'The life of a CSR', resources: ['certificates/certificatesigningrequests'] })).toBe(html);
  });
});

/** `s` seconds after the start. */
const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;

/** A pod write of the trace, by the StatefulSet controller unless `by` says otherwise (`api`: a request's). */
const write = (rv: number, s: number, change: 'ADDED' | 'MODIFIED' | 'DELETED', name: string, more: { summary?: string; by?: string } = {}): TraceEvent => ({
  seq: rv,
  at: at(s),
  type: 'write',
  rv,
  change,
  resource: 'core/pods',
  namespace: 'default',
  name,
  by: more.by ?? 'statefulset-controller',
  ...(more.summary === undefined ? {} : { summary: more.summary }),
});

describe('timeline options', () => {
  // web-0 lives 0–20 s, is deleted and created again at 30 s; web-1 changes at 10 s.
  const events: TraceEvent[] = [
    write(1, 0, 'ADDED', 'web-0', { summary: '0/1 Running 0' }),
    write(2, 10, 'MODIFIED', 'web-0', { summary: '1/1 Running 0' }),
    write(3, 20, 'DELETED', 'web-0'),
    write(4, 30, 'ADDED', 'web-0', { summary: '0/1 Running 0' }),
    write(5, 0, 'ADDED', 'web-1', { summary: '0/1 Running 0' }),
    { seq: 6, at: at(40), type: 'clock', to: at(40) },
  ];
  const lines = (svg: string) => [...svg.matchAll(/<line x1="([\d.]+)" y1="(\d+)" x2="([\d.]+)" y2="\2" ([^/]*)\/>/g)].map((m) => ({ x1: Number(m[1]), x2: Number(m[3]), look: m[4]! }));

  it('keeps a recreated object on its row, one life line per life, and ticks virtual time', () => {
    const svg = renderTimeline(events, { format: 'svg', title: 'lives' });
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toContain('<table>');
    expect(svg).toContain('<text x="8" y="18" class="title">lives</text>');
    expect(svg).toContain('class="group">pods · 2 objects</text>');
    expect((svg.match(/class="row">default\/web-0</g) ?? []).length).toBe(1);
    // Lives of web-0: 0–20 s and 30 s–end (x from 280 to 940 over 40 s), nothing across the gap.
    const life = lines(bodyOf(svg)).filter((l) => l.look === 'class="life"');
    expect(life.map((l) => [l.x1, l.x2])).toEqual([[280, 610], [775, 940], [280, 940]]);
    // Ticks every 5 s (at most 12 intervals), labelled in Go durations.
    expect(svg).toContain('>35s</text>');
    expect(svg).toContain('>40s</text>');
    expect(svg).not.toContain('>45s</text>');
    // A deletion is a ring.
    expect(svg).toMatch(/<circle cx="610.0" cy="\d+" r="6.5" fill="none" stroke="#cc3333"/);
  });

  it('draws each stretch in the lifeStyle of the write that starts it, with a legend of what is drawn, and notes', () => {
    const style = (w: { summary?: string }) => (w.summary?.startsWith('1/1') === true ? { color: '#2e8b57', label: 'Ready' } : { color: '#999', label: 'not Ready', dashed: true });
    const svg = renderTimeline(events, { format: 'svg', lifeStyle: style, notes: [{ at: at(10), text: 'replicas 2 & more' }] });
    const drawn = lines(bodyOf(svg)).filter((l) => l.look.startsWith('stroke='));
    expect(drawn.slice(0, 2)).toEqual([
      { x1: 280, x2: 445, look: 'stroke="#999" stroke-width="3" stroke-dasharray="6 4"' },
      { x1: 445, x2: 610, look: 'stroke="#2e8b57" stroke-width="4"' },
    ]);
    expect(svg).toContain('class="legend">not Ready</text>');
    expect(svg).toContain('class="legend">Ready</text>');
    expect(svg).toContain('class="note" text-anchor="start">replicas 2 &amp; more</text>');
    expect(svg).toMatch(/<line x1="445.0" y1="\d+" x2="445.0" y2="\d+" class="noteline"\/>/);
    // The page carries the same picture above its table.
    const html = renderTimeline(events, { lifeStyle: style });
    expect(html).toContain('<table>');
    expect(html).toContain('stroke="#2e8b57" stroke-width="4"');
  });
});

describe('timeline readability', () => {

  it('draws writes of one instant as separate marks side by side, tied underneath; a deletion and a creation too', () => {
    // web-0: created, scheduled, running in one instant; deleted and created again at 20 s; web-1 a user's pod.
    const events: TraceEvent[] = [
      write(1, 0, 'ADDED', 'web-0'),
      write(2, 0, 'MODIFIED', 'web-0'),
      write(3, 0, 'MODIFIED', 'web-0'),
      { seq: 4, at: at(0), type: 'request', method: 'POST', path: '/api/v1/namespaces/default/pods', user: 'alice', code: 201 },
      write(5, 0, 'ADDED', 'web-1', { by: 'api' }),
      write(6, 20, 'DELETED', 'web-0'),
      write(7, 20, 'ADDED', 'web-0'),
      { seq: 8, at: at(40), type: 'clock', to: at(40) },
    ];
    const svg = renderTimeline(events, { format: 'svg' });
    const drawn = marks(bodyOf(svg));
    expect(drawn.map((m) => [m.rv, m.shape, m.x, m.by])).toEqual([
      [1, 'circle', 280, 'statefulset-controller (controller)'],
      [2, 'circle', 292, 'statefulset-controller (controller)'],
      [3, 'circle', 304, 'statefulset-controller (controller)'],
      [5, 'path', 280, 'alice (user)'],
      [6, 'circle', 610, 'statefulset-controller (controller)'],
      [7, 'circle', 622, 'statefulset-controller (controller)'],
    ]);
    const ties = [...bodyOf(svg).matchAll(/<line x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)" y2="[\d.]+" class="tie"\/>/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(ties).toEqual([[280, 304], [610, 622]]);
    // The life line runs from the last mark of an instant to the next write: none inside an instant, none across the gap.
    const life = [...bodyOf(svg).matchAll(/<line x1="([\d.]+)" y1="(\d+)" x2="([\d.]+)" y2="\2" class="life"\/>/g)].map((m) => [Number(m[1]), Number(m[3])]);
    expect(life).toEqual([[304, 610], [622, 940], [280, 940]]);
  });

  it('says so when there is nothing to draw', () => {
    expect(renderTimeline([])).toContain('class="axis">no writes yet</text>');
    expect(renderTimeline([write(1, 0, 'ADDED', 'web-0')], { resources: ['core/secrets'], format: 'svg' })).toContain('class="axis">no writes to core/secrets yet</text>');
  });

  it('has a legend of marks, actors, instants and life-line looks', () => {
    const svg = renderTimeline([write(1, 0, 'ADDED', 'web-0')], { format: 'svg', lifeStyle: () => ({ color: '#2e8b57', label: 'Ready' }) });
    const legend = [...svg.matchAll(/class="legend">([^<]*)</g)].map((m) => m[1]);
    expect(legend).toEqual(['created', 'changed', 'deleted', 'by a controller', "by a user's request", 'writes in one instant', 'Ready']);
  });

  it('wraps a long name onto more lines in its row', () => {
    const name = `${'analytics-ingest-'.repeat(5)}0`;
    const svg = renderTimeline([write(1, 0, 'ADDED', 'short'), write(2, 0, 'ADDED', name)], { format: 'svg' });
    const label = /<text x="16" y="([\d.]+)" class="row">default\/analytics(.*?)<\/text>/.exec(svg)!;
    const lines = [`default/analytics${label[2]!.split('<tspan')[0]}`, ...[...label[2]!.matchAll(/<tspan x="16" dy="14">([^<]*)<\/tspan>/g)].map((m) => m[1]!)];
    expect(lines.join('')).toBe(`default/${name}`);
    expect(lines.length).toBe(3);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(35);
    expect(lines.slice(0, -1).every((l) => /[-/.]$/.test(l))).toBe(true);
    // Its row is taller: three lines of 14 px and a margin.
    const [short, long] = marks(bodyOf(svg)).map((m) => m.y);
    expect(long! - short!).toBeGreaterThanOrEqual(26 + 14);
  });
});

describe('timeline of 300 objects', () => {
  /** A StatefulSet of 100 pods, their events, 98 ConfigMaps of a user with long names: 300 objects of five kinds. */
  async function crowd() {
    const s = await sim({ checkInvariants: false });
    await s.create('/apis/apps/v1/namespaces/default/statefulsets', {
      metadata: { name: 'web' },
      spec: {
        replicas: 100, podManagementPolicy: 'Parallel', serviceName: 'web', selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/ready-after': '10s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
      },
    });
    await s.advance('20s');
    for (let i = 0; i < 98; i++) await s.create('/api/v1/namespaces/default/configmaps', { metadata: { name: `settings-for-tenant-${i}-of-the-long-running-storage-migration` } }, { as: { user: 'alice', groups: ['system:masters'] } });
    await s.advance('1m');
    return s;
  }

  it('groups rows by kind, wraps names, keeps marks apart and puts the rows in a scrolling box under a fixed head', async () => {
    const s = await crowd();
    const html = renderTimeline(s.trace());
    const groups = [...html.matchAll(/class="group">([^<]*)</g)].map((m) => m[1]);
    expect(groups).toEqual(['statefulsets · 1 object', 'controllerrevisions · 1 object', 'pods · 100 objects', 'events · 100 objects', 'configmaps · 98 objects']);
    expect((html.match(/class="row">/g) ?? []).length).toBe(300);
    expect(html).toContain('<a href="#kind-core-configmaps">configmaps</a> (98)');
    expect(html).toContain('.timeline{max-height:80vh;overflow:auto;');
    expect(html).toContain('.timeline>.head{position:sticky;top:0;');
    // Every label line fits its column; marks of one row are at least 12 px apart and inside the picture.
    for (const m of html.matchAll(/class="row">(.*?)<\/text>/g)) for (const line of m[1]!.split(/<tspan[^>]*>|<\/tspan>/)) expect(line.length).toBeLessThanOrEqual(35);
    const rows = new Map<number, number[]>();
    for (const m of marks(html)) rows.set(m.y, [...(rows.get(m.y) ?? []), m.x]);
    for (const xs of rows.values()) {
      const sorted = [...xs].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(12 - 0.1);
      expect(sorted[0]!).toBeGreaterThanOrEqual(280);
      expect(sorted[sorted.length - 1]!).toBeLessThanOrEqual(948);
    }
    expect(marks(html).filter((m) => m.by === 'alice (user)')).toHaveLength(98);
    // The same trace gives the same bytes.
    expect(renderTimeline((await crowd()).trace())).toBe(html);
  });
});
