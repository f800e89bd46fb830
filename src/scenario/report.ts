/**
 * The scenario report: one self-contained HTML page (no scripts, no network) with, per scenario,
 * its steps beside a timeline picture drawn by renderTimeline — pods as lanes by ordinal coloured
 * by revision and dashed while not Ready, CertificateSigningRequests coloured by their conditions
 * with the actor of each write in the marks' tooltips — then each CSR's changes of state with who
 * made them, the validity windows of the tokens the run was issued, and the requests that failed.
 * Pure: the same results give the same bytes.
 */
import type { KubeObject } from '../api/meta.ts';
import { parseInstant } from '../core/duration.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';
import type { Scenario } from './format.ts';
import type { ScenarioResult } from './run.ts';
import { renderTimeline, type LifeStyle, type TimelineNote, type TimelineWrite } from './timeline.ts';

export interface ReportedScenario {
  readonly scenario: Scenario;
  readonly result: ScenarioResult;
  readonly events: readonly TraceEvent[];
  /** The object a write left, where known (in process). */
  readonly objectAt: (rv: number) => KubeObject | undefined;
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const anchor = (name: string): string => `s-${name.replace(/[^a-z0-9-]/gi, '-')}`;

const style = `body{font:14px system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:20px}h2{font-size:17px;margin-top:40px;border-top:1px solid #ccc;padding-top:16px}h3{font-size:14px;margin:16px 0 6px}
.passed{color:#2e7d32}.failed{color:#c62828}.skipped{color:#777}
.scene{display:grid;grid-template-columns:minmax(320px,1fr) 2fr;gap:20px;align-items:start}
table{border-collapse:collapse;font-size:12px;width:100%}td,th{border-bottom:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}
td.t{font-family:monospace;white-space:nowrap;color:#555}.ctl{color:#555;font-size:11px;margin:2px 0 0 0;padding-left:14px}
.fail{background:#fdecea}.why{font-family:monospace;font-size:11px;white-space:pre-wrap;color:#8a1c1c}
.picture{position:sticky;top:8px}.picture svg{max-width:100%;height:auto}code{font-size:12px}.toc li{margin:2px 0}`;

/** The page: a summary with links, then each scenario. */
export function renderScenarioReport(scenarios: readonly ReportedScenario[], options: { readonly title?: string } = {}): string {
  const title = options.title ?? 'platform-sim scenarios';
  const passed = scenarios.filter((s) => s.result.outcome === 'passed').length;
  const failed = scenarios.filter((s) => s.result.outcome === 'failed').length;
  const toc = scenarios.map((s) => `<li><span class="${s.result.outcome}">${outcomeMark[s.result.outcome]}</span> <a href="#${anchor(s.result.name)}">${escape(s.result.name)}</a> <span class="skipped">${escape(s.result.file ?? '')}</span></li>`).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${style}</style></head>
<body><h1>${escape(title)}</h1>
<p>${passed} passed, ${failed} failed, ${scenarios.length - passed - failed} skipped.</p>
<ul class="toc">${toc}</ul>
${scenarios.map(section).join('\n')}
</body></html>
`;
}

const outcomeMark = { passed: '✓', failed: '✗', skipped: '–' } as const;

function section(s: ReportedScenario): string {
  const r = s.result;
  const steps = r.steps
    .map((st) => {
      const ctl = st.controllers.length === 0 ? '' : `<ul class="ctl">${st.controllers.map((c) => `<li>${escape(c)}</li>`).join('')}</ul>`;
      const why = st.failure === undefined ? '' : `<div class="why">${escape(st.failure.message)}${'expected' in st.failure ? `\nexpected: ${escape(JSON.stringify(st.failure.expected))}` : ''}${'seen' in st.failure ? `\nseen: ${escape(JSON.stringify(st.failure.seen)?.slice(0, 600) ?? '')}` : ''}</div>`;
      const skip = st.skipped === undefined ? '' : ` <span class="skipped">(skipped: ${escape(st.skipped)})</span>`;
      return `<tr class="${st.outcome === 'failed' ? 'fail' : ''}"><td class="t">${escape(st.offset ?? '')}</td><td>${st.step}</td><td class="${st.outcome}">${outcomeMark[st.outcome]}</td><td>${escape(st.title)}${skip}${ctl}${why}</td></tr>`;
    })
    .join('');
  const writes = s.events.filter((e): e is TimelineWrite => e.type === 'write' && e.resource !== 'core/events');
  const resources = [...new Set(writes.map((w) => w.resource))].sort();
  const picture = writes.length === 0 ? '<p class="skipped">No writes.</p>' : renderTimeline(s.events, { format: 'svg', title: 'objects over virtual time', resources, lifeStyle: lifeStyleOf(s.objectAt), notes: notesOf(r) });
  return `<h2 id="${anchor(r.name)}"><span class="${r.outcome}">${outcomeMark[r.outcome]}</span> ${escape(r.name)}</h2>
<p>${escape(s.scenario.description ?? '')}</p>
<p class="skipped">${escape(r.file ?? '')} · seed ${r.seed} · replay: <code>${escape(r.replay)}</code>${r.skipped === undefined ? '' : ` · skipped: ${escape(r.skipped)}`}</p>
<div class="scene"><table><tr><th>time</th><th>#</th><th></th><th>step, and what controllers did</th></tr>${steps}</table>
<div class="picture">${picture}</div></div>
${csrDecisions(s.events)}${tokenWindows(r)}${failedRequests(s.events)}`;
}

/**
 * Each change of a CertificateSigningRequest's state (its table cells: signer, requestor,
 * condition), with who made it: the controller, or the user whose request wrote it (the request
 * event comes just before its writes in the trace).
 */
function csrDecisions(events: readonly TraceEvent[]): string {
  const rows: string[] = [];
  const last = new Map<string, string>();
  let request: Extract<TraceEvent, { type: 'request' }> | undefined;
  for (const e of events) {
    if (e.type === 'request') request = e;
    if (e.type !== 'write' || e.resource !== 'certificates/certificatesigningrequests') continue;
    const state = e.change === 'DELETED' ? 'deleted' : (e.summary ?? '').split(' ').at(-1) ?? '';
    if (last.get(e.name) === state) continue;
    last.set(e.name, state);
    const by = e.by !== 'api' ? e.by : request === undefined ? 'a request' : `${request.user} (${request.method} ${request.path.replace(/^.*\/certificatesigningrequests\//, '…/')})`;
    rows.push(`<tr><td class="t">${escape(e.at)}</td><td>${escape(e.name)}</td><td>${escape(state)}</td><td>${escape(by)}</td></tr>`);
  }
  if (rows.length === 0) return '';
  return `<h3>CertificateSigningRequests: each change of state, and who made it</h3><table><tr><th>time</th><th>request</th><th>state</th><th>by</th></tr>${rows.join('')}</table>`;
}

/** A note where virtual time moved between steps, and at a failed step. */
function notesOf(r: ScenarioResult): TimelineNote[] {
  const notes: TimelineNote[] = [];
  let last = '';
  for (const st of r.steps) {
    if (st.at === undefined) continue;
    if (st.outcome === 'failed') notes.push({ at: st.at, text: `step ${st.step} failed` });
    else if (st.at !== last && last !== '') notes.push({ at: st.at, text: `step ${st.step}` });
    last = st.at;
  }
  return notes;
}

const revisionColors = ['#7b4fa8', '#e08a00', '#1f8fa8', '#8a6d3b'];

/** Pods by revision (dashed while not Ready, red once Failed); CSRs by their conditions. */
function lifeStyleOf(objectAt: (rv: number) => KubeObject | undefined): (w: TimelineWrite) => LifeStyle | undefined {
  const revisions: string[] = [];
  return (w) => {
    if (w.resource === 'core/pods') {
      const pod = objectAt(w.rv);
      if (pod === undefined) return undefined;
      const status = pod['status'] as { phase?: string; conditions?: { type: string; status: string }[] } | undefined;
      if (status?.phase === 'Failed') return { color: '#cc3333', label: 'Failed' };
      const revision = pod.metadata.labels?.['controller-revision-hash'] ?? '';
      if (!revisions.includes(revision)) revisions.push(revision);
      const color = revision === '' ? '#555555' : revisionColors[revisions.indexOf(revision) % revisionColors.length]!;
      const name = revision === '' ? 'pod' : revision;
      if (pod.metadata.deletionTimestamp !== undefined) return { color, label: `${name} terminating`, dashed: true };
      const ready = status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
      return ready ? { color, label: `${name} Ready` } : { color, label: `${name} not Ready`, dashed: true };
    }
    if (w.resource === 'certificates/certificatesigningrequests') {
      const summary = w.summary ?? '';
      if (/Denied|Failed/.test(summary)) return { color: '#cc3333', label: 'CSR denied or failed' };
      if (/Issued/.test(summary)) return { color: '#2e8b57', label: 'CSR issued' };
      if (/Approved/.test(summary)) return { color: '#3366cc', label: 'CSR approved, not issued', dashed: true };
      return { color: '#999999', label: 'CSR pending', dashed: true };
    }
    return undefined;
  };
}

/** The tokens issued during the run as bars from issue to expiry, with the 60 s leeway hatched. */
function tokenWindows(r: ScenarioResult): string {
  if (r.tokens.length === 0) return '';
  const id = `leeway-${anchor(r.name)}`;
  const t0 = Math.min(...r.tokens.map((t) => parseInstant(t.issuedAt) ?? 0));
  const t1 = Math.max(...r.tokens.map((t) => (parseInstant(t.expires) ?? 0) + 60_000));
  const width = 900;
  const left = 260;
  const x = (ms: number): number => left + ((ms - t0) / Math.max(1, t1 - t0)) * (width - left - 20);
  const rows = r.tokens
    .map((t, i) => {
      const y = 20 + i * 24;
      const a = x(parseInstant(t.issuedAt) ?? t0);
      const b = x(parseInstant(t.expires) ?? t0);
      const c = x((parseInstant(t.expires) ?? t0) + 60_000);
      const label = `step ${t.step}: ${t.account}${t.boundTo === undefined ? '' : ` → ${t.boundTo}`}`;
      return `<text x="8" y="${y + 12}" font-size="11" font-family="monospace">${escape(label.slice(0, 38))}</text><rect x="${a.toFixed(1)}" y="${y}" width="${Math.max(1, b - a).toFixed(1)}" height="14" fill="#3366cc"><title>${escape(`${t.issuedAt} → ${t.expires}, audiences ${t.audiences.join(', ')}`)}</title></rect><rect x="${b.toFixed(1)}" y="${y}" width="${Math.max(1, c - b).toFixed(1)}" height="14" fill="url(#${id})"><title>60 s leeway after expiry</title></rect>`;
    })
    .join('');
  const height = 30 + r.tokens.length * 24;
  return `<h3>Tokens: valid from issue to expiry (blue), then 60 s of leeway (hatched)</h3>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs><pattern id="${id}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="3" height="6" fill="#9db3e0"/></pattern></defs>${rows}</svg>`;
}

function failedRequests(events: readonly TraceEvent[]): string {
  const failed = events.filter((e): e is Extract<TraceEvent, { type: 'request' }> => e.type === 'request' && e.code >= 400);
  if (failed.length === 0) return '';
  return `<h3>Requests that failed</h3><table><tr><th>time</th><th>code</th><th>request</th><th>user</th></tr>${failed.map((e) => `<tr><td class="t">${escape(e.at)}</td><td class="failed">${e.code}</td><td><code>${escape(`${e.method} ${e.path}`)}</code></td><td>${escape(e.user)}</td></tr>`).join('')}</table>`;
}
