/**
 * Fresh worlds from the shipped bootstrap templates (sim/bootstrapTemplate.ts) are the worlds
 * bootstrapping makes, byte for byte, for other seeds, starts and both names modes; settings a
 * template does not stand for are bootstrapped; and the shipped file is what makeTemplate makes
 * today (after a change to the bootstrap: `npx vitest run -u test/unit/sim/bootstrapTemplate.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { bootstrapWorld } from '../../../src/sim/bootstrap.ts';
import { fromTemplate, makeTemplate, shippedTemplateOptions, type BootstrapTemplate } from '../../../src/sim/bootstrapTemplate.ts';
import shipped from '../../../src/sim/bootstrapTemplates.json' with { type: 'json' };
import { hashWorld } from '../../../src/sim/hash.ts';
import { resolveOptions, type SimulationOptions } from '../../../src/sim/options.ts';
import { startingPoint } from '../../../src/sim/start.ts';
import { buildResourceTable } from '../../../src/registry/index.ts';
import { namesFor } from '../../../src/api/names.ts';

const tableOf = (o: SimulationOptions) => buildResourceTable(namesFor(o.groupDomain ?? 'platform.io'));

describe('bootstrap templates', () => {
  it('ship what makeTemplate makes today', async () => {
    const made = shippedTemplateOptions.map((o) => makeTemplate(resolveOptions(o), tableOf(o)));
    expect(made.every((t) => t !== null)).toBe(true);
    await expect(`${JSON.stringify(made, null, 1)}\n`).toMatchFileSnapshot('../../../src/sim/bootstrapTemplates.json');
  });

  it.each([
    [{ seed: 1 }],
    [{ seed: 'another seed', startTime: '2030-06-07T08:09:10Z' }],
    [{ seed: 7, startTime: '2026-11-26T10:32:29.123Z' }],
    [{ seed: 3, groupDomain: 'k8s.io' as const }],
    [{ seed: 'bootstrap-template', startTime: '2003-04-05T06:07:08Z' }],
  ])('make the world bootstrapping makes, byte for byte: %j', (options) => {
    const o = resolveOptions(options);
    const table = tableOf(options);
    const fromShipped = (shipped as readonly BootstrapTemplate[]).map((t) => fromTemplate(t, o, table)).find((w) => w !== null);
    expect(fromShipped).toBeDefined();
    const bootstrapped = bootstrapWorld(o, table);
    expect(JSON.stringify(fromShipped)).toBe(JSON.stringify(bootstrapped));
    expect(hashWorld(fromShipped!)).toBe(hashWorld(bootstrapped));
    // And a simulation started from it is the same world.
    expect(hashWorld(startingPoint(options).world)).toBe(hashWorld(bootstrapped));
  });

  it('stand only for the settings they were made with', () => {
    const t = (shipped as readonly BootstrapTemplate[])[0]!;
    for (const options of [{ seed: 1, nodeAgent: false }, { seed: 1, podReadyAfter: '2s' }, { seed: 1, faults: [{ verbs: ['get'], code: 503 }] }] as SimulationOptions[]) {
      expect(fromTemplate(t, resolveOptions(options), tableOf(options))).toBeNull();
      expect(hashWorld(startingPoint(options).world)).toBe(hashWorld(bootstrapWorld(resolveOptions(options), tableOf(options))));
    }
  });
});
