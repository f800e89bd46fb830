/**
 * Renders a lifecycle table (lifecycle.ts) as documentation: a Mermaid `stateDiagram-v2` with one
 * arrow per pair of states (the labels of every move between them, joined), then the phases and
 * the moves as Markdown tables. A group of phases is drawn as a composite state: the moves inside
 * it are drawn inside, and a move from every phase of the group is one arrow from the group. The
 * "no object" phase is drawn as `[*]`. Pure text in, text out: the same table always gives the
 * same bytes. Labels avoid `;`, `#` and `:` (Mermaid syntax).
 */
import type { Lifecycle, Move, PhaseGroup } from './lifecycle.ts';

type AnyLifecycle<P extends string> = Lifecycle<P, Move<P>>;

function stateName<P extends string>(lifecycle: AnyLifecycle<P>, phase: P): string {
  return phase === lifecycle.outside ? '[*]' : phase;
}

/** The phases of `from` with each group it holds whole replaced by the group's name. */
function sources<P extends string>(lifecycle: AnyLifecycle<P>, from: readonly P[]): string[] {
  const whole = (lifecycle.groups ?? []).filter((g) => g.phases.every((p) => from.includes(p)));
  const out: string[] = [];
  for (const p of from) {
    const name = whole.find((g) => g.phases.includes(p))?.name ?? stateName(lifecycle, p);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

function groupOf<P extends string>(lifecycle: AnyLifecycle<P>, state: string): PhaseGroup<P> | undefined {
  return (lifecycle.groups ?? []).find((g) => (g.phases as readonly string[]).includes(state));
}

/** The Mermaid block (with its fence). */
export function renderMermaid<P extends string>(lifecycle: AnyLifecycle<P>): string {
  const arrows = new Map<string, { from: string; to: string; labels: string[] }>();
  for (const m of lifecycle.moves) {
    for (const from of sources(lifecycle, m.from)) {
      const to = stateName(lifecycle, m.to);
      const key = `${from} --> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, labels: [] };
      if (!arrow.labels.includes(m.label)) arrow.labels.push(m.label);
      arrows.set(key, arrow);
    }
  }
  const line = (indent: string, a: { from: string; to: string; labels: string[] }): string => `${indent}${a.from} --> ${a.to}: ${a.labels.join(', or ')}`;
  const inside = (g: PhaseGroup<P>, a: { from: string; to: string }): boolean => groupOf(lifecycle, a.from) === g && groupOf(lifecycle, a.to) === g;
  const lines: string[] = [];
  for (const g of lifecycle.groups ?? []) {
    lines.push(`    state ${g.name} {`, ...g.phases.map((p) => `        ${p}`));
    lines.push(...[...arrows.values()].filter((a) => inside(g, a)).map((a) => line('        ', a)), '    }');
  }
  lines.push(...[...arrows.values()].filter((a) => !(lifecycle.groups ?? []).some((g) => inside(g, a))).map((a) => line('    ', a)));
  return ['```mermaid', 'stateDiagram-v2', ...lines, '```'].join('\n');
}

const cell = (text: string): string => text.replaceAll('|', '\\|');

function fromText<P extends string>(lifecycle: AnyLifecycle<P>, from: readonly P[]): string {
  const present = lifecycle.phases.map((p) => p.name).filter((p) => p !== lifecycle.outside);
  if (present.length > 1 && present.every((p) => from.includes(p))) return 'any phase';
  return sources(lifecycle, from).join(', ');
}

/** The diagram, the phases and the moves: the block a docs chapter carries between its markers. */
export function renderLifecycle<P extends string>(lifecycle: AnyLifecycle<P>): string {
  const phases = lifecycle.phases.filter((p) => p.name !== lifecycle.outside).map((p) => `| ${p.name} | ${cell(p.means)} |`);
  const groups = (lifecycle.groups ?? []).map((g) => `| ${g.name} | any of ${g.phases.join(', ')} |`);
  const moves = lifecycle.moves.map(
    (m) => `| ${fromText(lifecycle, m.from)} | ${stateName(lifecycle, m.to)} | ${cell(m.actor)} | \`${m.via}\` | ${cell(m.marks)} | ${cell(m.when)} |`,
  );
  return [
    renderMermaid(lifecycle),
    '',
    '| phase | means |',
    '|---|---|',
    ...phases,
    ...groups,
    '',
    '| from | to | who | through | marked by | when |',
    '|---|---|---|---|---|---|',
    ...moves,
  ].join('\n');
}
