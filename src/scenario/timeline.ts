/**
 * A trace as a picture: an HTML page with an SVG timeline — objects grouped by kind, one row per
 * object (an object deleted and created again under its name keeps its row: one row per
 * StatefulSet ordinal; a long name wraps onto more lines), a life line for each of its lives, a
 * mark per write (green created, blue changed, red ring deleted; a circle when a controller made
 * it, a diamond when a user's request did) whose tooltip names the revision, the actor and the
 * object's state, ticks of virtual time — and the writes as a table below. Writes to one object in
 * the same instant are separate marks side by side, tied by a line underneath. A legend says all
 * of this; on the page the legend, notes and time axis stay in view while the rows scroll (300
 * objects stay readable). `lifeStyle` colours the life line from each write to the next (by
 * readiness, by revision…) and adds its looks to the legend, `notes` label moments,
 * `format: 'svg'` gives the picture alone as a standalone SVG document (for `<img>` in the docs).
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
const radius: Record<TimelineWrite['change'], number> = { ADDED: 5, MODIFIED: 3.5, DELETED: 6.5 };
const kindOf = (resource: string): string => resource.split('/')[1] ?? resource;
const nameOf = (w: TimelineWrite): string => `${w.namespace === '' ? '' : `${w.namespace}/`}${w.name}`;

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
  '.title{font:bold 15px system-ui,sans-serif}.row{font:12px monospace}.group{font:bold 12px system-ui,sans-serif;fill:#333}.band{fill:#eceff3}' +
  '.axis{font:11px monospace;fill:#666}.tick{stroke:#e4e4e4}.note{font:11px system-ui,sans-serif;fill:#333}.noteline{stroke:#999;stroke-dasharray:3 3}' +
  '.life{stroke:#bbb;stroke-width:2}.tie{stroke:#555;stroke-width:1.5}.legend{font:11px system-ui,sans-serif}';

// Geometry. Rows: labels in [labelX, left), time in [left, right].
const width = 960;
const left = 280;
const right = width - 20;
const labelX = 16;
/** Characters of 12px monospace that fit in the label column (7.2 px each). */
const labelChars = Math.floor((left - labelX - 10) / 7.2);
const lineHeight = 14;
const rowHeight = 26;
const groupHeight = 24;
/** Least distance between two marks of a row: writes in one instant are drawn side by side. */
const markGap = 12;

/** A write as drawn: who made it, where its mark is. */
interface Mark {
  readonly write: TimelineWrite;
  readonly actor: string;
  /** Made by a user's request (else by a controller). */
  readonly user: boolean;
  /** Where its instant is, and where its mark is drawn (later, when marks of one instant or close instants would overlap). */
  readonly at: number;
  pos: number;
  style: LifeStyle | undefined;
}

interface Row {
  readonly key: string;
  readonly lines: readonly string[];
  readonly marks: Mark[];
}

interface Group {
  readonly resource: string;
  readonly rows: Row[];
}

/** `text` in lines of at most `max` characters, broken after `/`, `-` or `.` where one is near the end. */
function wrapLabel(text: string, max: number = labelChars): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    for (let i = max; i > max / 2; i--) {
      if ('/-.'.includes(rest[i - 1]!)) {
        cut = i;
        break;
      }
    }
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  lines.push(rest);
  return lines;
}

/**
 * The writes with their actor: a controller's name, or — for writes the API made for a request
 * (`by: 'api'`) — the user of that request, the last request event before them.
 */
function attributed(events: readonly TraceEvent[], keep: (w: TimelineWrite) => boolean): { write: TimelineWrite; actor: string; user: boolean }[] {
  const out: { write: TimelineWrite; actor: string; user: boolean }[] = [];
  let requester = '';
  for (const e of events) {
    if (e.type === 'request') requester = e.user;
    if (e.type !== 'write' || !keep(e)) continue;
    out.push(e.by === 'api' ? { write: e, actor: requester === '' ? 'api' : requester, user: true } : { write: e, actor: e.by, user: false });
  }
  return out;
}

/** The picture's parts: what stays above the rows (legend, time range, notes, tick labels) and the rows. */
interface Drawing {
  readonly head: string[];
  readonly headHeight: number;
  readonly body: string[];
  readonly bodyHeight: number;
  readonly groups: readonly Group[];
  readonly marks: readonly Mark[];
}

function draw(events: readonly TraceEvent[], options: TimelineOptions, titled: boolean): Drawing {
  const keep = (w: TimelineWrite): boolean => options.resources === undefined || options.resources.includes(w.resource);
  let start = Infinity;
  let end = -Infinity;
  for (const e of events) {
    const t = parseInstant(e.at) ?? 0;
    if (t < start) start = t;
    if (t > end) end = t;
  }
  if (events.length === 0) [start, end] = [0, 1000];
  end = Math.max(end, start + 1000);
  const x = (t: number): number => left + ((t - start) / (end - start)) * (right - left);

  // Groups by kind, rows by object, both in order of first appearance.
  const groups: Group[] = [];
  const rows = new Map<string, Row>();
  const marks: Mark[] = [];
  for (const a of attributed(events, keep)) {
    const key = `${a.write.resource} ${nameOf(a.write)}`;
    let row = rows.get(key);
    if (row === undefined) {
      row = { key, lines: wrapLabel(nameOf(a.write)), marks: [] };
      rows.set(key, row);
      let group = groups.find((g) => g.resource === a.write.resource);
      if (group === undefined) groups.push((group = { resource: a.write.resource, rows: [] }));
      group.rows.push(row);
    }
    const at = parseInstant(a.write.at) ?? start;
    const mark: Mark = { ...a, at, pos: x(at), style: undefined };
    row.marks.push(mark);
    marks.push(mark);
  }
  const kinds = groups.map((g) => kindOf(g.resource));
  const groupTitle = (g: Group): string => {
    const kind = kindOf(g.resource);
    const count = `${g.rows.length} object${g.rows.length === 1 ? '' : 's'}`;
    return kinds.filter((k) => k === kind).length > 1 ? `${kind} (${g.resource.split('/')[0] ?? ''}) · ${count}` : `${kind} · ${count}`;
  };

  // Marks of a row never overlap: each at least markGap after the one before, none past the edge.
  for (const row of rows.values()) {
    const m = row.marks;
    for (let i = 1; i < m.length; i++) m[i]!.pos = Math.max(m[i]!.pos, m[i - 1]!.pos + markGap);
    for (let i = m.length - 1; i >= 0; i--) m[i]!.pos = Math.min(m[i]!.pos, i === m.length - 1 ? right + 8 : m[i + 1]!.pos - markGap);
  }
  for (const m of marks) m.style = m.write.change === 'DELETED' ? undefined : options.lifeStyle?.(m.write);

  // The rows.
  const body: string[] = [];
  let y = 0;
  const layout = groups.map((g) => {
    const top = y;
    y += groupHeight;
    const placed = g.rows.map((row) => {
      const height = Math.max(rowHeight, row.lines.length * lineHeight + 12);
      const mid = y + height / 2;
      y += height;
      return { row, mid };
    });
    return { g, top, placed };
  });
  if (groups.length === 0) y = 24;
  const bodyHeight = y + 6;
  const step = tickSteps.find((s) => (end - start) / s <= maxTicks) ?? tickSteps[tickSteps.length - 1]!;
  const ticks: { x: string; label: string }[] = [];
  for (let t = 0; t <= end - start; t += step) ticks.push({ x: (left + (t / (end - start)) * (right - left)).toFixed(1), label: tickLabel(t) });
  for (const t of ticks) body.push(`<line x1="${t.x}" y1="0" x2="${t.x}" y2="${bodyHeight}" class="tick"/>`);
  if (groups.length === 0) body.push(`<text x="${left}" y="18" class="axis">no writes${options.resources === undefined ? '' : ` to ${escape(options.resources.join(', '))}`} yet</text>`);
  const legendStyles: LifeStyle[] = [];
  let plainLife = false;
  for (const { g, top, placed } of layout) {
    body.push(`<g id="kind-${escape(g.resource.replace(/[^a-z0-9-]/gi, '-'))}"><rect x="0" y="${top + 2}" width="${width}" height="${groupHeight - 4}" class="band"/><text x="8" y="${top + 16}" class="group">${escape(groupTitle(g))}</text></g>`);
    for (const { row, mid } of placed) {
      const first = mid - ((row.lines.length - 1) * lineHeight) / 2 + 4;
      body.push(`<text x="${labelX}" y="${first}" class="row">${row.lines.map((l, i) => (i === 0 ? escape(l) : `<tspan x="${labelX}" dy="${lineHeight}">${escape(l)}</tspan>`)).join('')}</text>`);
      // A stretch per write to the row's next write (or the end); none after a deletion, none
      // between writes of one instant (no time passes: the tie says it). Stretches of one look
      // that meet are drawn as one line.
      let open: { x1: number; x2: number; style: LifeStyle | undefined } | null = null;
      const flush = (): void => {
        if (open === null || open.x2 <= open.x1) return;
        const s = open.style;
        if (s === undefined) plainLife = true;
        else if (!legendStyles.some((l) => l.label === s.label)) legendStyles.push(s);
        body.push(`<line x1="${open.x1.toFixed(1)}" y1="${mid}" x2="${open.x2.toFixed(1)}" y2="${mid}" ${lookOf(s)}/>`);
      };
      row.marks.forEach((m, k) => {
        const next = row.marks[k + 1];
        if (m.write.change === 'DELETED' || next?.at === m.at) {
          flush();
          open = null;
          return;
        }
        const x2 = next?.pos ?? right;
        const same = open !== null && open.x2 === m.pos && open.style?.label === m.style?.label && lookOf(open.style) === lookOf(m.style);
        if (same) open!.x2 = x2;
        else {
          flush();
          open = { x1: m.pos, x2, style: m.style };
        }
      });
      flush();
      // Writes of one instant: tied by a line under their marks.
      for (let i = 0; i < row.marks.length; ) {
        let j = i;
        while (j + 1 < row.marks.length && row.marks[j + 1]!.at === row.marks[i]!.at) j++;
        if (j > i) body.push(`<line x1="${row.marks[i]!.pos.toFixed(1)}" y1="${mid + 9}" x2="${row.marks[j]!.pos.toFixed(1)}" y2="${mid + 9}" class="tie"/>`);
        i = j + 1;
      }
      // Changes small, creations bigger, deletions as rings.
      for (const change of ['MODIFIED', 'ADDED', 'DELETED'] as const) {
        for (const m of row.marks.filter((r) => r.write.change === change)) body.push(markSvg(m, mid));
      }
    }
  }

  // Above the rows: the legend, the time range, the notes, the tick labels.
  const head: string[] = [];
  let hy = titled ? 24 : 0;
  if (titled) head.push(`<text x="8" y="18" class="title">${escape(options.title ?? 'platform-sim timeline')}</text>`);
  const legend: { sample: (lx: number, ly: number) => string; label: string }[] = [
    { sample: (lx, ly) => shape(lx + 12, ly - 4, 'ADDED', false, ''), label: 'created' },
    { sample: (lx, ly) => shape(lx + 12, ly - 4, 'MODIFIED', false, ''), label: 'changed' },
    { sample: (lx, ly) => shape(lx + 12, ly - 4, 'DELETED', false, ''), label: 'deleted' },
    { sample: (lx, ly) => `<circle cx="${lx + 12}" cy="${ly - 4}" r="5" fill="#777"/>`, label: 'by a controller' },
    { sample: (lx, ly) => diamond(lx + 12, ly - 4, 5, 'fill="#777"', ''), label: "by a user's request" },
    {
      sample: (lx, ly) => `<line x1="${lx + 4}" y1="${ly + 3}" x2="${lx + 20}" y2="${ly + 3}" class="tie"/><circle cx="${lx + 4}" cy="${ly - 4}" r="3.5" fill="#777"/><circle cx="${lx + 20}" cy="${ly - 4}" r="3.5" fill="#777"/>`,
      label: 'writes in one instant',
    },
    ...(plainLife ? [{ sample: (lx: number, ly: number) => `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 24}" y2="${ly - 4}" class="life"/>`, label: 'exists' }] : []),
    ...legendStyles.map((s) => ({ sample: (lx: number, ly: number) => `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 24}" y2="${ly - 4}" ${lookOf(s)}/>`, label: s.label })),
  ];
  let lx = 8;
  hy += 18;
  for (const l of legend) {
    const w = 48 + l.label.length * 6.2;
    if (lx + w > width - 8 && lx > 8) {
      lx = 8;
      hy += 18;
    }
    head.push(`${l.sample(lx, hy)}<text x="${lx + 30}" y="${hy}" class="legend">${escape(l.label)}</text>`);
    lx += w;
  }
  hy += 22;
  head.push(`<text x="${left}" y="${hy}" class="axis">${escape(events[0]?.at ?? '')}</text><text x="${right}" y="${hy}" class="axis" text-anchor="end">${escape(events[events.length - 1]?.at ?? '')}</text>`);
  const notes = options.notes ?? [];
  const noteYs = notes.map(() => (hy += lineHeight) + 2);
  hy += 18;
  for (const t of ticks) head.push(`<text x="${t.x}" y="${hy}" class="axis" text-anchor="middle">${escape(t.label)}</text>`);
  const headHeight = hy + 6;
  notes.forEach((n, i) => {
    const nx = x(parseInstant(n.at) ?? start);
    const anchor = nx + 3 + n.text.length * 6 > right ? 'end' : 'start';
    const tx = anchor === 'end' ? nx - 3 : nx + 3;
    head.push(`<line x1="${nx.toFixed(1)}" y1="${noteYs[i]! + 3}" x2="${nx.toFixed(1)}" y2="${headHeight}" class="noteline"/><text x="${tx.toFixed(1)}" y="${noteYs[i]}" class="note" text-anchor="${anchor}">${escape(n.text)}</text>`);
    body.push(`<line x1="${nx.toFixed(1)}" y1="0" x2="${nx.toFixed(1)}" y2="${bodyHeight}" class="noteline"/>`);
  });
  return { head, headHeight, body, bodyHeight, groups, marks };
}

function diamond(cx: number, cy: number, r: number, paint: string, inner: string): string {
  const d = r * 1.3;
  return `<path d="M${cx.toFixed(1)} ${(cy - d).toFixed(1)}L${(cx + d).toFixed(1)} ${cy}L${cx.toFixed(1)} ${(cy + d).toFixed(1)}L${(cx - d).toFixed(1)} ${cy}Z" ${paint}>${inner}</path>`;
}

/** A write's mark: its colour and size by change, a circle for a controller, a diamond for a user. */
function shape(cx: number, cy: number, change: TimelineWrite['change'], user: boolean, inner: string): string {
  const paint = change === 'DELETED' ? `fill="none" stroke="${colors[change]}" stroke-width="2"` : `fill="${colors[change]}"`;
  return user ? diamond(cx, cy, radius[change], paint, inner) : `<circle cx="${cx.toFixed(1)}" cy="${cy}" r="${radius[change]}" ${paint}>${inner}</circle>`;
}

const actorWords = (m: Mark): string => `${m.actor} (${m.user ? 'user' : 'controller'})`;

function markSvg(m: Mark, y: number): string {
  const w = m.write;
  const tip = `rv ${w.rv} · ${w.change} by ${actorWords(m)} · ${w.at}${w.summary === undefined ? '' : ` · ${w.summary}`}`;
  return shape(m.pos, y, w.change, m.user, `<title>${escape(tip)}</title>`);
}

const svgOpen = (height: number): string => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;

export function renderTimeline(events: readonly TraceEvent[], options: TimelineOptions = {}): string {
  const title = options.title ?? 'platform-sim timeline';
  if (options.format === 'svg') {
    const d = draw(events, options, true);
    const height = d.headHeight + d.bodyHeight;
    return `<?xml version="1.0" encoding="UTF-8"?>
${svgOpen(height)}
<title>${escape(title)}</title>
<rect width="${width}" height="${height}" fill="#fafafa"/>
<style>${svgStyle}</style>
${d.head.join('\n')}
<g transform="translate(0,${d.headHeight})">
${d.body.join('\n')}
</g>
</svg>
`;
  }
  const d = draw(events, options, false);
  const table = d.marks
    .map((m) => {
      const w = m.write;
      return `<tr><td>${escape(w.at)}</td><td>${w.rv}</td><td>${escape(`${kindOf(w.resource)} ${nameOf(w)}`)}</td><td style="color:${colors[w.change]}">${w.change}</td><td>${escape(actorWords(m))}</td><td>${escape(w.summary ?? '')}</td></tr>`;
    })
    .join('\n');
  const objects = d.groups.reduce((n, g) => n + g.rows.length, 0);
  const kinds = d.groups.map((g) => `<a href="#kind-${escape(g.resource.replace(/[^a-z0-9-]/gi, '-'))}">${escape(kindOf(g.resource))}</a> (${g.rows.length})`).join(', ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}.timeline{max-height:80vh;overflow:auto;width:fit-content;border:1px solid #ddd;background:#fafafa}.timeline>.head{position:sticky;top:0;z-index:1;background:#fafafa;border-bottom:1px solid #ddd}.timeline svg{display:block}.timeline g[id]{scroll-margin-top:${d.headHeight + 8}px}table{border-collapse:collapse;margin-top:8px}td,th{border-bottom:1px solid #eee;padding:2px 8px;font:12px monospace;text-align:left}summary{margin-top:16px;cursor:pointer}</style>
</head><body>
<h1>${escape(title)}</h1>
<p>Virtual time from ${escape(events[0]?.at ?? '—')} to ${escape(events[events.length - 1]?.at ?? '—')}; ${d.marks.length} writes to ${objects} objects${d.groups.length === 0 ? '' : `: ${kinds}`}. Hover a mark for its revision, actor and state.</p>
<div class="timeline">
<div class="head">${svgOpen(d.headHeight)}
<style>${svgStyle}</style>
${d.head.join('\n')}
</svg></div>
${svgOpen(d.bodyHeight)}
<style>${svgStyle}</style>
${d.body.join('\n')}
</svg>
</div>
<details${d.marks.length <= 500 ? ' open' : ''}><summary>The ${d.marks.length} writes</summary>
<table><thead><tr><th>time</th><th>rv</th><th>object</th><th>change</th><th>by</th><th>state</th></tr></thead><tbody>
${table}
</tbody></table>
</details>
</body></html>
`;
}
