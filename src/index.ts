/**
 * platform-sim: the main entry. I/O-free (no `node:` imports), so it also runs in a browser.
 * Every export is named here one by one.
 */
export { Simulation } from './edges/simulation/simulation.ts';
export { createSimulation, restoreSimulation } from './edges/simulation/create.ts';
export type { SimRequest, SimResponse, SimRequestOptions, KubeList, PatchType, Snapshot, ClientCertificateRequest, CertificateRequestSpec } from './edges/simulation/simulation.ts';
export type { SimulationOptions, StaticUser, RequestHeaderOptions } from './sim/options.ts';
export type { ServiceAccountTokenValidator, ClaimsCheck } from './auth/tokenValidator.ts';
export { PlatformSimError } from './sim/options.ts';
export type { AsIdentity } from './edges/simulation/authenticate.ts';
export { step } from './sim/step.ts';
export type { Input, Effect, StepResult, StepEnv, RequestOutput, Visit, WriteAttribution, Rejection } from './sim/step.ts';
export { startingPoint } from './sim/start.ts';
export type { StartingPoint, StartingEdge } from './sim/start.ts';
export { factKey, tokenPlaceholder } from './sim/factBook.ts';
export type { Need } from './sim/factBook.ts';
export { controllerManagerActor } from './controllers/types.ts';
export { getObject, listObjects } from './store/objects.ts';
export type { Controller, ControllerEnv, Intent, Actor, UpdateSubresource } from './controllers/types.ts';
export type { World, WorldConfig } from './store/world.ts';
export type { TraceEvent } from './edges/simulation/trace.ts';
export { renderTimeline } from './scenario/timeline.ts';
export type { TimelineOptions, LifeStyle, TimelineNote, TimelineWrite } from './scenario/timeline.ts';
export type { FaultRule, FaultState, ErrorFault, WatchFault, StaleReadFault, ControllerFault, NodeFault } from './sim/faultRules.ts';
export { WatchStream } from './edges/simulation/watchStream.ts';
export type { WatchEvent } from './edges/simulation/watchStream.ts';
export type { Status, StatusCause, StatusDetails, StatusReason } from './core/status.ts';
export type { KubeObject, ObjectMeta, OwnerReference, ManagedFieldsEntry } from './api/meta.ts';
export { parseDuration, formatDuration } from './core/duration.ts';
export { InvariantError } from './core/assert.ts';
export const version = '0.1.0';
