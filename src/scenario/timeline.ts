/**
 * A trace as a picture: an HTML page with an SVG timeline — one row per object (an object deleted
 * and created again under its name keeps its row: one row per StatefulSet ordinal), a life line
 * for each of its lives, a mark per write (green created, blue changed, red deleted) whose
 * tooltip names the revision, the actor and the object's state (a deletion is a ring, so a
 * deletion and a creation in the same instant both show), ticks of virtual time — and the
 * writes as a table below. `lifeStyle` colours the life line from each write to the next (by
 * readiness, by revision…) and adds a legend, `notes` label moments, `format: 'svg'` gives the
 * picture alone as a standalone SVG document (for `<img>` in the docs).
 * Pure and deterministic: the same trace and options give the same bytes.
 */
import { formatDuration, parseInstant } from '../core/duration.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';

export type TimelineWrite = Extract<TraceEvent, { type: 'write' }>;

/** How a stretch of an object's life line is drawn. */
export interface LifeStyle {
  /** A CSS colour. */
  readonly color: string;
  /** The legend's words; stretches with the same words share one legend entry (the first one's look). */
  readonly label: string;
  /** Dashed instead of solid (for instance: not ready). */
  readonly dashed?: boolean;
}

/** A moment to point at: a dashed vertical line across the rows, the text above them. */
export interface TimelineNote {
  readonly at: string;
  readonly text: string;
}

export interface TimelineOptions {
  readonly title?: string;
  /** Only these resource ids (`certificates/certificatesigningrequests`); default every one. */
  readonly resources?: readonly string[];
  /** The look of an object's life line from this write to its next write (undefined: the plain grey line). */
  readonly lifeStyle?: (write: TimelineWrite) => LifeStyle | undefined;
  readonly notes?: readonly TimelineNote[];
  /** `html` (default): a page with the picture and the writes as a table. `svg`: the picture alone. */
  readonly format?: 'html' | 'svg';
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const colors: Record<TimelineWrite['change'], string> = { ADDED: '#2e8b57', MODIFIED: '#3366cc', DELETED: '#cc3333' };
const label = (w: TimelineWrite): string => `${w.resource.split('/')[1] ?? w.resource} ${w.namespace === '' ? '' : `${w.namespace}/`}${w.name}`;

const second = 1000;
/** Tick spacings, smallest first; the first giving at most `maxTicks` intervals is used. */
const tickSteps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * second);
const maxTicks = 12;

/** `1m0s` → `1m`, `1h0m0s` → `1h`: tick labels. */
const tickLabel = (ms: number): string => formatDuration(ms).replace(/([hm])0s$/, '$1').replace(/h0m$/, 'h');

/** The attributes of a stretch of life line drawn in `s` (the plain grey line without one). */
const lookOf = (s: LifeStyle | undefined): string =>
  s === undefined ? 'class="life"' : `stroke="${escape(s.color)}" stroke-width="${s.dashed === true ? 3 : 4}"${s.dashed === true ? ' stroke-dasharray="6 4"' : ''}`;

const svgStyle =
  '.title{font:bold 15px system-ui,sans-serif}.row{font:12px monospace}.axis{font:11px monospace;fill:#666}.tick{stroke:#e4e4e4}' +
  '.note{font:11px system-ui,sans-serif;fill:#333}.noteline{stroke:#999;stroke-dasharray:3 3}.life{stroke:#bbb;stroke-width:2}.legend{font:11px system-ui,sans-serif}';

function svgOf(events: readonly TraceEvent[], writes: readonly TimelineWrite[], options: TimelineOptions, standalone: boolean): string {
  const rows: string[] = [];
  for (const w of writes) if (!rows.includes(label(w))) rows.push(label(w));
  const times = events.map((e) => parseInstant(e.at) ?? 0);
  const start = times.length === 0 ? 0 : Math.min(...times);
  const end = times.length === 0 ? 1 : Math.max(...times, start + 1000);
  const left = 280;
  const width = 960;
  const right = width - 20;
  const rowHeight = 26;
  const x = (at: string): number => left + ((parseInstant(at) ?? start) - start) / (end - start) * (right - left);
  const notes = options.notes ?? [];
  const titleHeight = standalone ? 24 : 0;
  const noteY = (i: number): number => titleHeight + 34 + i * 14;
  const tickY = titleHeight + 36 + notes.length * 14;
  const rowY = (i: number): number => tickY + 22 + i * rowHeight;
  const rowsBottom = rowY(rows.length - 1) + rowHeight / 2;
  const parts: string[] = [];
  if (standalone) parts.push(`<text x="8" y="18" class="title">${escape(options.title ?? 'platform-sim timeline')}</text>`);
  parts.push(`<text x="${left}" y="${titleHeight + 18}" class="axis">${escape(events[0]?.at ?? '')}</text><text x="${right}" y="${titleHeight + 18}" class="axis" text-anchor="end">${escape(events[events.length - 1]?.at ?? '')}</text>`);
  const step = tickSteps.find((s) => (end - start) / s <= maxTicks) ?? tickSteps[tickSteps.length - 1]!;
  for (let t = 0; t <= end - start; t += step) {
    const tx = (left + (t / (end - start)) * (right - left)).toFixed(1);
    parts.push(`<line x1="${tx}" y1="${tickY + 4}" x2="${tx}" y2="${rowsBottom}" class="tick"/><text x="${tx}" y="${tickY}" class="axis" text-anchor="middle">${escape(tickLabel(t))}</text>`);
  }
  notes.forEach((n, i) => {
    const nx = x(n.at);
    const anchor = nx + 3 + n.text.length * 6 > right ? 'end' : 'start';
    const tx = anchor === 'end' ? nx - 3 : nx + 3;
    parts.push(`<line x1="${nx.toFixed(1)}" y1="${noteY(i) + 3}" x2="${nx.toFixed(1)}" y2="${rowsBottom}" class="noteline"/><text x="${tx.toFixed(1)}" y="${noteY(i)}" class="note" text-anchor="${anchor}">${escape(n.text)}</text>`);
  });
  const legend: LifeStyle[] = [];
  rows.forEach((row, i) => {
    const y = rowY(i);
    const mine = writes.filter((w) => label(w) === row);
    parts.push(`<text x="8" y="${y + 4}" class="row">${escape(row)}</text>`);
    // A stretch per write to the row's next write (or the end); none after a deletion. Stretches
    // of one look that meet are drawn as one line.
    let open: { x1: number; x2: number; style: LifeStyle | undefined } | null = null;
    const flush = (): void => {
      if (open === null || open.x2 <= open.x1) return;
      const s = open.style;
      if (s !== undefined && !legend.some((l) => l.label === s.label)) legend.push(s);
      parts.push(`<line x1="${open.x1.toFixed(1)}" y1="${y}" x2="${open.x2.toFixed(1)}" y2="${y}" ${lookOf(s)}/>`);
    };
    mine.forEach((w, k) => {
      if (w.change === 'DELETED') {
        flush();
        open = null;
        return;
      }
      const next = mine[k + 1];
      const style = options.lifeStyle?.(w);
      const x1 = x(w.at);
      const x2 = next === undefined ? right : x(next.at);
      const same = open !== null && open.x2 === x1 && open.style?.label === style?.label && lookOf(open.style) === lookOf(style);
      if (same) open!.x2 = x2;
      else {
        flush();
        open = { x1, x2, style };
      }
    });
    flush();
    // Changes small, creations over them, deletions as rings: a pod deleted and created again in
    // the same instant shows both.
    for (const change of ['MODIFIED', 'ADDED', 'DELETED'] as const) {
      for (const w of mine.filter((m) => m.change === change)) {
        const tip = `rv ${w.rv} · ${w.change} by ${w.by} · ${w.at}${w.summary === undefined ? '' : ` · ${w.summary}`}`;
        const look = change === 'MODIFIED' ? `r="3.5" fill="${colors[change]}"` : change === 'ADDED' ? `r="5" fill="${colors[change]}"` : `r="6.5" fill="none" stroke="${colors[change]}" stroke-width="2"`;
        parts.push(`<circle cx="${x(w.at).toFixed(1)}" cy="${y}" ${look}><title>${escape(tip)}</title></circle>`);
      }
    }
  });
  let legendX = left;
  let legendY = rowsBottom + 20;
  for (const l of legend) {
    const w = 40 + l.label.length * 6.5;
    if (legendX + w > right && legendX > left) {
      legendX = left;
      legendY += 18;
    }
    parts.push(`<line x1="${legendX}" y1="${legendY - 4}" x2="${legendX + 24}" y2="${legendY - 4}" ${lookOf(l)}/><text x="${legendX + 30}" y="${legendY}" class="legend">${escape(l.label)}</text>`);
    legendX += w;
  }
  const height = (legend.length === 0 ? rowsBottom : legendY) + 12;
  const head = standalone ? `<title>${escape(options.title ?? 'platform-sim timeline')}</title>\n<rect width="${width}" height="${height}" fill="#fafafa"/>\n` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
${head}<style>${svgStyle}</style>
${parts.join('\n')}
</svg>`;
}

export function renderTimeline(events: readonly TraceEvent[], options: TimelineOptions = {}): string {
  const writes = events.filter((e): e is TimelineWrite => e.type === 'write' && (options.resources === undefined || options.resources.includes(e.resource)));
  if (options.format === 'svg') return `<?xml version="1.0" encoding="UTF-8"?>\n${svgOf(events, writes, options, true)}\n`;
  const objects = new Set(writes.map(label)).size;
  const table = writes
    .map((w) => `<tr><td>${escape(w.at)}</td><td>${w.rv}</td><td>${escape(label(w))}</td><td style="color:${colors[w.change]}">${w.change}</td><td>${escape(w.by)}</td><td>${escape(w.summary ?? '')}</td></tr>`)
    .join('\n');
  const title = escape(options.title ?? 'platform-sim timeline');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}svg{border:1px solid #ddd;background:#fafafa}table{border-collapse:collapse;margin-top:16px}td,th{border-bottom:1px solid #eee;padding:2px 8px;font:12px monospace;text-align:left}</style>
</head><body>
<h1>${title}</h1>
<p>Virtual time from ${escape(events[0]?.at ?? '—')} to ${escape(events[events.length - 1]?.at ?? '—')}; ${writes.length} writes to ${objects} objects. Hover a mark for its revision, actor and state.</p>
${svgOf(events, writes, options, false)}
<table><thead><tr><th>time</th><th>rv</th><th>object</th><th>change</th><th>by</th><th>state</th></tr></thead><tbody>
${table}
</tbody></table>
</body></html>
`;
}
