/**
 * How often each installed `node` rule fired and let pods through, by its place in world.faults:
 * the node agent keeps these counts in its own memory (faultMemory.ts), and the simulation shows
 * them with the rules (`sim.faults()`, GET /sim/v1/faults) so that node rules report like the rest.
 */
import type { World } from '../../store/world.ts';
import { stateOf } from './agentState.ts';
import { memoryOf } from './faultMemory.ts';
import { nodeRules } from './nodeFaults.ts';

export function nodeRuleCounts(world: World): ReadonlyMap<number, { readonly fired: number; readonly passed: number }> {
  const memory = stateOf(world).faults ?? {};
  const out = new Map<number, { fired: number; passed: number }>();
  for (const r of nodeRules(world)) {
    const m = memoryOf(memory, r);
    out.set(Number(r.key.slice(0, r.key.indexOf('@'))), { fired: m.fired, passed: m.passed });
  }
  return out;
}
