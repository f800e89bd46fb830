/**
 * What installing fault rules checks beyond their format (faultRules.ts), against the simulation
 * they are installed in: every controller a rule names runs there (a rule about a controller that
 * is not there would silently never act), and no rule says something it would silently ignore.
 * Every way in (the `faults` option, `sim.injectFaults`, POST /sim/v1/faults) refuses such a rule.
 */
import { kindOfRule, type ControllerFault, type ErrorFault, type FaultRule, type NodeFault } from './faultRules.ts';
import { controllersNamed } from './controllerNames.ts';

/** Fields every kind may carry that a `controller` rule does not act on: it happens at a moment. */
const notForControllerRules = ['after', 'times', 'probability', 'when'] as const;
/** A lost node is lost whole: it selects no pods and happens once, at `from`. */
const notForNodeLost = ['after', 'times', 'probability', 'when', 'namespaces', 'names'] as const;

/** The first problem (`faults[2].controller: …`), or null. */
export function checkFaultsFor(rules: readonly FaultRule[], controllers: readonly { readonly name: string }[]): string | null {
  const unknown = (name: string): string => `no controller "${name}" in this simulation (its controllers: ${controllers.map((c) => c.name).join(', ')})`;
  for (const [i, rule] of rules.entries()) {
    const at = `faults[${i}]`;
    if (kindOfRule(rule) === 'controller') {
      const r = rule as ControllerFault;
      if (controllersNamed(r.controller, controllers).length === 0) return `${at}.controller: ${unknown(r.controller)}`;
      for (const field of notForControllerRules) {
        if (r[field] !== undefined) return `${at}.${field}: a controller rule happens at a moment of virtual time (from, for), not on occurrences or object state`;
      }
    }
    if (kindOfRule(rule) === 'node' && (rule as NodeFault).action === 'nodeLost') {
      for (const field of notForNodeLost) {
        if ((rule as NodeFault)[field] !== undefined) return `${at}.${field}: a nodeLost rule loses the whole node at a moment of virtual time (from), not some pods or occurrences`;
      }
    }
    if (kindOfRule(rule) === 'error') {
      const r = rule as ErrorFault;
      for (const [j, name] of (r.controllers ?? []).entries()) {
        if (name !== '*' && controllersNamed(name, controllers).length === 0) return `${at}.controllers[${j}]: ${unknown(name)}`;
      }
      if (r.retryAfterSeconds !== undefined && r.code !== 429 && r.code !== 503) return `${at}.retryAfterSeconds: only a 429 or a 503 carries a Retry-After`;
    }
  }
  return null;
}
