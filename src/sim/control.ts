/**
 * The `/sim/v1/*` control endpoints (JSON), pure: clock, advance, settle, hash, faults, snapshot
 * replacement. The API pipeline authenticated and authorized the call first, as any
 * non-resource path (only `system:masters`, through cluster-admin's `nonResourceURLs: ["*"]`,
 * unless a ClusterRole grants `/sim/v1/*`). What only the driver holds (the trace, the report,
 * the snapshot's options) is named in `fill` for the driver to write into the body. Every input
 * is checked before it changes anything (controlChecks.ts, store/validateWorld.ts): a refused one
 * is a 400 naming the first problem, and the world stays as it was.
 */
import { formatInstant, parseDuration } from '../core/duration.ts';
import { errors } from '../core/status.ts';
import type { ControlCall } from '../endpoints/handleResource.ts';
import { respond, respondError } from '../endpoints/respond.ts';
import type { ApiResponse } from '../endpoints/types.ts';
import type { ResourceTable } from '../registry/index.ts';
import type { World } from '../store/world.ts';
import type { Controller, ControllerServices } from '../controllers/types.ts';
import { clearFaults, installFaults, reportedFaults, validateFaultRules } from './faults.ts';
import { checkFaultsFor } from './faultChecks.ts';
import { hashWorld } from './hash.ts';
import { advanceWorld, settleWorld, type Progress } from './scheduler.ts';
import { readSavedWorldChecked } from '../store/upgrade.ts';
import { servedWorldProblem } from '../store/servedWorld.ts';
import { jsonValueProblem, show } from '../store/validateStoredObject.ts';
import { limits } from '../core/limits.ts';
import { advanceProblem, replacementProblem } from './controlChecks.ts';

const snapshotFormat = 'platform-sim/snapshot@1';

/** Parts of a control answer only the driver has. */
export type ControlFill = 'trace' | 'report' | 'snapshot';

export interface ControlAnswer {
  readonly response: ApiResponse;
  readonly progress: Progress;
  readonly fill?: ControlFill;
  /** The world was replaced by a snapshot (open watches end). */
  readonly replaced?: boolean;
}

const json = { output: { type: 'json' as const }, pretty: false };

function ok(world: World, body: unknown): ControlAnswer {
  return { response: respond(200, body, json), progress: still(world) };
}

function bad(world: World, message: string): ControlAnswer {
  return { response: respondError(errors.badRequest(message), json), progress: still(world) };
}

function still(world: World): Progress {
  return { world, instants: [], rejections: [] };
}

function jsonBody(text: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? { ok: true, value: v as Record<string, unknown> } : { ok: false };
  } catch {
    return { ok: false };
  }
}

const notFound = (world: World): ControlAnswer => ({ response: respondError(errors.routeNotFound(), json), progress: still(world) });

export function serveControl(world: World, table: ResourceTable, services: ControllerServices, controllers: readonly Controller[], call: ControlCall): ControlAnswer {
  const now = (w: World): { now: string } => ({ now: formatInstant(w.now) });
  switch (`${call.method} ${call.path}`) {
    case 'GET /sim/v1/clock':
      return ok(world, now(world));
    case 'POST /sim/v1/clock/advance': {
      const body = jsonBody(call.body);
      if (!body.ok) return bad(world, 'body must be JSON: {"duration":"90s"}');
      const d = body.value['duration'];
      const ms = typeof d === 'string' ? parseDuration(d) : null;
      if (ms === null || ms < 0) return bad(world, 'duration must be a non-negative Go duration such as "90s"');
      const beyond = advanceProblem(world, ms);
      if (beyond !== null) return bad(world, `duration: ${beyond}`);
      const progress = advanceWorld(world, table, world.now + ms, services, controllers);
      return { response: respond(200, now(progress.world), json), progress };
    }
    case 'POST /sim/v1/settle': {
      const progress = settleWorld(world, table, services, controllers);
      return { response: respond(200, now(progress.world), json), progress };
    }
    case 'GET /sim/v1/hash':
      return ok(world, { hash: hashWorld(world) });
    case 'GET /sim/v1/faults':
      return ok(world, { faults: reportedFaults(world) });
    case 'POST /sim/v1/faults': {
      const body = jsonBody(call.body);
      if (!body.ok) return bad(world, 'body must be JSON: {"rules":[{"verbs":["create"],"resources":["pods"],"code":500}]}');
      // Rules live in the world, which is hashed and saved: as deep as a request body may be.
      const deep = jsonValueProblem(body.value, limits.jsonDepthMax);
      if (deep !== null) return bad(world, `body${deep}`);
      const checked = validateFaultRules(body.value['rules']);
      if (!checked.ok) return bad(world, checked.message.replace(/^faults/, 'rules'));
      const problem = checkFaultsFor(checked.rules, controllers);
      if (problem !== null) return bad(world, problem.replace(/^faults/, 'rules'));
      const next = installFaults(world, checked.rules);
      return { response: respond(200, { faults: reportedFaults(next) }, json), progress: { world: next, instants: [{ world: next, writes: [] }], rejections: [] } };
    }
    case 'DELETE /sim/v1/faults': {
      const next = clearFaults(world);
      return { response: respond(200, { faults: [] }, json), progress: { world: next, instants: [{ world: next, writes: [] }], rejections: [] } };
    }
    case 'GET /sim/v1/trace':
      return { ...ok(world, null), fill: 'trace' };
    case 'GET /sim/v1/report':
      return { ...ok(world, null), fill: 'report' };
    case 'GET /sim/v1/snapshot':
      return { ...ok(world, null), fill: 'snapshot' };
    case 'PUT /sim/v1/snapshot': {
      const body = jsonBody(call.body);
      const snap = body.ok ? body.value : null;
      if (snap === null) return bad(world, 'body must be a snapshot as GET /sim/v1/snapshot returns it');
      if (snap['format'] !== snapshotFormat) return bad(world, `not a platform-sim snapshot: format must be "${snapshotFormat}", not ${show(snap['format'])}`);
      const read = readSavedWorldChecked(snap['world']);
      const problem = read.ok ? (replacementProblem(read.world, table.names.domain, controllers) ?? servedWorldProblem(read.world, true)) : read.problem;
      if (!read.ok || problem !== null) return bad(world, `invalid snapshot: ${problem}`);
      const replacement = read.world;
      return { response: respond(200, { hash: hashWorld(replacement) }, json), progress: { world: replacement, instants: [], rejections: [] }, replaced: true };
    }
    default:
      return notFound(world);
  }
}
