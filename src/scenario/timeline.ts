/**
 * A trace as a picture: an HTML page with an SVG timeline — one row per object, a life line from
 * its creation to its deletion, a mark per write (green created, blue changed, red deleted) whose
 * tooltip names the revision, the actor and the object's state — and the writes as a table below.
 * Pure and deterministic: the same trace gives the same bytes.
 */
import { parseInstant } from '../core/duration.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';

type Write = Extract<TraceEvent, { type: 'write' }>;

export interface TimelineOptions {
  readonly title?: string;
  /** Only these resource ids (`certificates/certificatesigningrequests`); default every one. */
  readonly resources?: readonly string[];
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const colors: Record<Write['change'], string> = { ADDED: '#2e8b57', MODIFIED: '#3366cc', DELETED: '#cc3333' };
const label = (w: Write): string => `${w.resource.split('/')[1] ?? w.resource} ${w.namespace === '' ? '' : `${w.namespace}/`}${w.name}`;

export function renderTimeline(events: readonly TraceEvent[], options: TimelineOptions = {}): string {
  const writes = events.filter((e): e is Write => e.type === 'write' && (options.resources === undefined || options.resources.includes(e.resource)));
  const rows: string[] = [];
  for (const w of writes) if (!rows.includes(label(w))) rows.push(label(w));
  const times = events.map((e) => parseInstant(e.at) ?? 0);
  const start = times.length === 0 ? 0 : Math.min(...times);
  const end = times.length === 0 ? 1 : Math.max(...times, start + 1000);
  const left = 280;
  const width = 960;
  const rowHeight = 26;
  const x = (at: string): number => left + ((parseInstant(at) ?? start) - start) / (end - start) * (width - left - 20);
  const height = 50 + rows.length * rowHeight;
  const parts: string[] = [];
  rows.forEach((row, i) => {
    const y = 40 + i * rowHeight;
    const mine = writes.filter((w) => label(w) === row);
    const born = mine[0]!;
    const died = mine.find((w) => w.change === 'DELETED');
    parts.push(`<text x="8" y="${y + 4}" class="row">${escape(row)}</text>`);
    parts.push(`<line x1="${x(born.at).toFixed(1)}" y1="${y}" x2="${(died === undefined ? width - 20 : x(died.at)).toFixed(1)}" y2="${y}" class="life"/>`);
    for (const w of mine) {
      const tip = `rv ${w.rv} · ${w.change} by ${w.by} · ${w.at}${w.summary === undefined ? '' : ` · ${w.summary}`}`;
      parts.push(`<circle cx="${x(w.at).toFixed(1)}" cy="${y}" r="5" fill="${colors[w.change]}"><title>${escape(tip)}</title></circle>`);
    }
  });
  const axis = `<text x="${left}" y="20" class="axis">${escape(events[0]?.at ?? '')}</text><text x="${width - 20}" y="20" class="axis" text-anchor="end">${escape(events[events.length - 1]?.at ?? '')}</text>`;
  const table = writes
    .map((w) => `<tr><td>${escape(w.at)}</td><td>${w.rv}</td><td>${escape(label(w))}</td><td style="color:${colors[w.change]}">${w.change}</td><td>${escape(w.by)}</td><td>${escape(w.summary ?? '')}</td></tr>`)
    .join('\n');
  const title = escape(options.title ?? 'platform-sim timeline');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}svg{border:1px solid #ddd;background:#fafafa}.row{font:12px monospace}.axis{font:11px monospace;fill:#666}.life{stroke:#bbb;stroke-width:2}table{border-collapse:collapse;margin-top:16px}td,th{border-bottom:1px solid #eee;padding:2px 8px;font:12px monospace;text-align:left}</style>
</head><body>
<h1>${title}</h1>
<p>Virtual time from ${escape(events[0]?.at ?? '—')} to ${escape(events[events.length - 1]?.at ?? '—')}; ${writes.length} writes to ${rows.length} objects. Hover a mark for its revision, actor and state.</p>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
${axis}
${parts.join('\n')}
</svg>
<table><thead><tr><th>time</th><th>rv</th><th>object</th><th>change</th><th>by</th><th>state</th></tr></thead><tbody>
${table}
</tbody></table>
</body></html>
`;
}
