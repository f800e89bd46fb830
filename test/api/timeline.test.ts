/**
 * The life of a CSR as a picture: the trace rendered as an HTML timeline (one row per object, a
 * mark per write with revision, actor and state), deterministic, and served at /sim/v1/report.
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { renderTimeline, type TraceEvent } from '../../src/index.ts';
import { sim, type Body } from '../helpers.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';

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
    expect(html).toContain('certificatesigningrequests alice');
    expect((html.match(/<circle /g) ?? []).length).toBe(4);
    expect(html).toMatch(/MODIFIED by csr-signer · 2026-01-01T00:05:00Z · platform\.io\/apiserver-client system:admin Approved,Issued/);
    expect(html).toMatch(/DELETED by csr-cleaner · 2026-01-01T01:05:00Z/);
    expect(renderTimeline((await lifeOfACsr()).trace(), { title: 'The life of a CSR', resources: ['certificates/certificatesigningrequests'] })).toBe(html);
  });
});

describe('timeline options', () => {
  const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;
  const write = (rv: number, s: number, change: 'ADDED' | 'MODIFIED' | 'DELETED', name: string, summary?: string): TraceEvent => ({
    seq: rv,
    at: at(s),
    type: 'write',
    rv,
    change,
    resource: 'core/pods',
    namespace: 'default',
    name,
    by: 'statefulset-controller',
    ...(summary === undefined ? {} : { summary }),
  });
  // web-0 lives 0–20 s, is deleted and created again at 30 s; web-1 changes at 10 s.
  const events: TraceEvent[] = [
    write(1, 0, 'ADDED', 'web-0', '0/1 Running 0'),
    write(2, 10, 'MODIFIED', 'web-0', '1/1 Running 0'),
    write(3, 20, 'DELETED', 'web-0'),
    write(4, 30, 'ADDED', 'web-0', '0/1 Running 0'),
    write(5, 0, 'ADDED', 'web-1', '0/1 Running 0'),
    { seq: 6, at: at(40), type: 'clock', to: at(40) },
  ];
  const lines = (svg: string) => [...svg.matchAll(/<line x1="([\d.]+)" y1="(\d+)" x2="([\d.]+)" y2="\2" ([^/]*)\/>/g)].map((m) => ({ x1: Number(m[1]), x2: Number(m[3]), look: m[4]! }));

  it('keeps a recreated object on its row, one life line per life, and ticks virtual time', () => {
    const svg = renderTimeline(events, { format: 'svg', title: 'lives' });
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toContain('<table>');
    expect(svg).toContain('<text x="8" y="18" class="title">lives</text>');
    expect((svg.match(/class="row">pods default\/web-0</g) ?? []).length).toBe(1);
    // Lives of web-0: 0–20 s and 30 s–end (x from 280 to 940 over 40 s), nothing across the gap.
    const life = lines(svg).filter((l) => l.look === 'class="life"');
    expect(life.map((l) => [l.x1, l.x2])).toEqual([[280, 610], [775, 940], [280, 940]]);
    // Ticks every 5 s (at most 12 intervals), labelled in Go durations.
    expect(svg).toContain('>35s</text>');
    expect(svg).toContain('>40s</text>');
    expect(svg).not.toContain('>45s</text>');
    // A deletion is a ring, a creation a dot over it.
    expect(svg).toMatch(/<circle cx="610.0" cy="\d+" r="6.5" fill="none" stroke="#cc3333"/);
  });

  it('draws each stretch in the lifeStyle of the write that starts it, with a legend of what is drawn, and notes', () => {
    const style = (w: { summary?: string }) => (w.summary?.startsWith('1/1') === true ? { color: '#2e8b57', label: 'Ready' } : { color: '#999', label: 'not Ready', dashed: true });
    const svg = renderTimeline(events, { format: 'svg', lifeStyle: style, notes: [{ at: at(10), text: 'replicas 2 & more' }] });
    const drawn = lines(svg).filter((l) => l.look.startsWith('stroke='));
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
