/**
 * Work a fault rule leaves at this very instant (a rule cleared, a kubelet back, a node silent for
 * its grace period) is announced as a wake-up now, so `advance` does it before time moves on —
 * unless a write of the controller waits for its retry (a fault refused it): the retry's own time
 * wakes the simulation then, and announcing now again would only revisit this instant.
 */
import type { Instant } from '../../core/duration.ts';
import type { World } from '../../store/world.ts';

export function wakeNow(world: World, controller: string): Instant | null {
  for (const [slot, retry] of Object.entries(world.retries ?? {})) if (slot.startsWith(`${controller}/`) && retry.notBefore > world.now) return null;
  return world.now;
}
