/** The generic lifecycle queries and the diagram rendering (src/core/lifecycle*.ts). */
import { describe, expect, it } from 'vitest';
import { movesBetween, phasesActedOnBy, reachableFrom, type Lifecycle } from '../../../src/core/lifecycle.ts';
import { renderMermaid } from '../../../src/core/lifecycleDiagram.ts';

type P = 'None' | 'A' | 'B' | 'C';
const move = (from: P[], to: P, actor: string, label: string) => ({ from, to, actor, via: 'x', marks: 'm', when: 'w', label });
const table: Lifecycle<P> = {
  name: 't',
  outside: 'None',
  groups: [{ name: 'AB', phases: ['A', 'B'] }],
  phases: [
    { name: 'None', means: '' },
    { name: 'A', means: '' },
    { name: 'B', means: '' },
    { name: 'C', means: '' },
  ],
  moves: [move(['None'], 'A', 'user', 'create'), move(['A'], 'B', 'ctl', 'go'), move(['A', 'B'], 'C', 'ctl', 'end'), move(['A', 'B', 'C'], 'None', 'user', 'delete'), move(['C'], 'None', 'gc', 'collect')],
};

describe('lifecycle tables', () => {
  it('answers which moves exist and what is reachable', () => {
    expect(movesBetween(table, 'C', 'None').map((m) => m.actor)).toEqual(['user', 'gc']);
    expect([...reachableFrom(table, 'B')].sort()).toEqual(['B', 'C', 'None']);
    expect([...reachableFrom(table, 'C')].sort()).toEqual(['C', 'None']);
    expect([...reachableFrom(table, 'C', true)].sort()).toEqual(['A', 'B', 'C', 'None']);
    expect([...reachableFrom(table, 'None')].sort()).toEqual(['A', 'B', 'C', 'None']);
    expect([...phasesActedOnBy(table, 'ctl')]).toEqual(['A', 'B']);
  });

  it('draws groups as composite states and joins the labels of one arrow', () => {
    expect(renderMermaid(table)).toBe(
      [
        '```mermaid',
        'stateDiagram-v2',
        '    state AB {',
        '        A',
        '        B',
        '        A --> B: go',
        '    }',
        '    [*] --> A: create',
        '    AB --> C: end',
        '    AB --> [*]: delete',
        '    C --> [*]: delete, or collect',
        '```',
      ].join('\n'),
    );
  });
});
