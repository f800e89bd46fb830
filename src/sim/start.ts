/**
 * A fresh world and the environment `step` needs, from options alone: everything a caller must
 * hold to drive a simulation with nothing but `step` (sans-IO). The keys are what the edge
 * imported (none: tokens cannot be issued or verified, everything else works); `signingCaNotAfter`
 * is when the built-in signers' CA expires (epoch ms).
 */
import { namesFor } from '../api/names.ts';
import type { ServiceAccountKey } from '../auth/identityConfig.ts';
import { buildResourceTable, type ResourceTable } from '../registry/index.ts';
import type { GroupDomain, World } from '../store/world.ts';
import { canonicalJson } from '../core/json.ts';
import { bootstrapWorld } from './bootstrap.ts';
import { fromTemplate, type BootstrapTemplate } from './bootstrapTemplate.ts';
import shippedTemplates from './bootstrapTemplates.json' with { type: 'json' };
import { identityWithKeys, PlatformSimError, resolveOptions, type ResolvedOptions, type SimulationOptions } from './options.ts';
import { checkFaultsFor } from './faultChecks.ts';
import type { StepEnv } from './step.ts';
import { builtInControllers } from './controllers.ts';
import type { Controller } from '../controllers/types.ts';

export interface StartingPoint {
  readonly world: World;
  readonly env: StepEnv;
  readonly options: ResolvedOptions;
}

export interface StartingEdge {
  readonly keys?: readonly ServiceAccountKey[];
  readonly signingCaNotAfter?: number;
  /** Crypto facts the edge established so far (a Map it keeps adding to), by factKey. */
  readonly facts?: ReadonlyMap<string, unknown>;
}

/**
 * What every simulation of the same seed and settings starts from, made once and shared: the
 * resource table of a names mode, and the bootstrapped world (namespaces, RBAC policy, the first
 * settle) of a seed, start, config and fault rules. Both are immutable, so a property test that
 * makes a thousand fresh simulations builds them once. Bounded: past the bound the world least
 * recently asked for goes.
 */
const tables = new Map<string, ResourceTable>();
const freshWorlds = new Map<string, World>();
const freshWorldsMax = 64;

function tableFor(domain: GroupDomain): ResourceTable {
  let table = tables.get(domain);
  if (table === undefined) tables.set(domain, (table = buildResourceTable(namesFor(domain))));
  return table;
}

/** From a shipped template when there is one for these settings (bootstrapTemplate.ts), else bootstrapped. */
function bootstrapped(o: ResolvedOptions, table: ResourceTable): World {
  for (const t of shippedTemplates as readonly BootstrapTemplate[]) {
    const world = fromTemplate(t, o, table);
    if (world !== null) return world;
  }
  return bootstrapWorld(o, table);
}

function freshWorld(o: ResolvedOptions, table: ResourceTable): World {
  const key = canonicalJson([o.seed, o.start, o.config, o.faults]);
  let world = freshWorlds.get(key);
  if (world === undefined) {
    world = bootstrapped(o, table);
    if (freshWorlds.size >= freshWorldsMax) freshWorlds.delete(freshWorlds.keys().next().value!);
  } else freshWorlds.delete(key);
  // Last in the map's order: the most recently asked for.
  freshWorlds.set(key, world);
  return world;
}

/**
 * The built-in controllers with the caller's: one named like a built-in takes its place in the
 * order (a variant under test, as kube-controller-manager runs with one controller swapped out);
 * the others run after the built-ins. The bootstrap world is still made by the built-ins.
 */
function controllersWith(own: readonly Controller[]): Controller[] {
  const builtIn = new Set(builtInControllers.map((c) => c.name));
  return [...builtInControllers.map((b) => own.find((c) => c.name === b.name) ?? b), ...own.filter((c) => !builtIn.has(c.name))];
}

export function startingPoint(options: SimulationOptions = {}, edge: StartingEdge = {}): StartingPoint {
  const o = resolveOptions(options);
  const table = tableFor(o.config.groupDomain);
  const env: StepEnv = {
    table,
    identity: identityWithKeys(o, edge.keys ?? []),
    facts: edge.facts ?? new Map(),
    signing: { caNotAfter: edge.signingCaNotAfter ?? Number.MAX_SAFE_INTEGER, maxDurationSeconds: o.clusterSigningDurationSeconds },
    controllers: controllersWith(options.controllers ?? []),
  };
  // Rules about controllers are checked against the ones this simulation runs.
  const problem = checkFaultsFor(o.faults, env.controllers ?? builtInControllers);
  if (problem !== null) throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${problem}`);
  // The world draws from the seed alone: a key secret changes keys, never uids or names.
  const world = freshWorld(o.worldSeed === o.seed ? o : { ...o, seed: o.worldSeed }, table);
  return { world, env, options: o };
}
