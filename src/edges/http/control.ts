/**
 * The `/sim/v1/*` control endpoints (JSON): clock, advance, settle, hash, trace, snapshot, faults.
 */
import type { Simulation, Snapshot } from '../../sim/simulation.ts';
import { parseDuration } from '../../core/duration.ts';
import { validateFaultRules } from '../../sim/faults.ts';
import { renderTimeline } from '../../scenario/timeline.ts';

export interface ControlResult {
  readonly status: number;
  /** A JSON body, or text with its content type (the trace is one JSON event per line). */
  readonly body: unknown;
  readonly text?: { readonly contentType: string; readonly body: string };
}

const bad = (message: string): ControlResult => ({ status: 400, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 } });

export interface ControlCredentials {
  readonly headers: Record<string, string | string[]>;
  readonly clientCertificate?: string;
}

/**
 * Authentication and RBAC as for any non-resource path: only `system:masters` (cluster-admin's
 * `nonResourceURLs: ["*"]`) may use these unless a ClusterRole grants `/sim/v1/*`.
 */
export async function control(sim: Simulation, method: string, path: string, credentials: ControlCredentials, body: string): Promise<ControlResult> {
  const refusal = await sim.refuse({ method, path, headers: credentials.headers, transport: 'http', ...(credentials.clientCertificate === undefined ? {} : { clientCertificate: credentials.clientCertificate }) });
  if (refusal !== null) return { status: refusal.status, body: JSON.parse(refusal.body) as unknown };
  const route = `${method} ${path}`;
  switch (route) {
    case 'GET /sim/v1/clock':
      return { status: 200, body: { now: sim.now() } };
    case 'POST /sim/v1/clock/advance': {
      let duration: unknown;
      try {
        duration = (JSON.parse(body) as { duration?: unknown }).duration;
      } catch {
        return bad('body must be JSON: {"duration":"90s"}');
      }
      if (typeof duration !== 'string' || parseDuration(duration) === null || parseDuration(duration)! < 0) return bad('duration must be a non-negative Go duration such as "90s"');
      await sim.advance(duration);
      return { status: 200, body: { now: sim.now() } };
    }
    case 'POST /sim/v1/settle':
      await sim.settle();
      return { status: 200, body: { now: sim.now() } };
    case 'GET /sim/v1/hash':
      return { status: 200, body: { hash: sim.hash() } };
    case 'GET /sim/v1/trace':
      return { status: 200, body: null, text: { contentType: 'application/x-ndjson', body: sim.traceNdjson() } };
    case 'GET /sim/v1/report':
      return { status: 200, body: null, text: { contentType: 'text/html; charset=utf-8', body: renderTimeline(sim.trace(), { title: 'platform-sim timeline' }) } };
    case 'GET /sim/v1/faults':
      return { status: 200, body: { faults: sim.faults() } };
    case 'POST /sim/v1/faults': {
      let rules: unknown;
      try {
        rules = (JSON.parse(body) as { rules?: unknown }).rules;
      } catch {
        return bad('body must be JSON: {"rules":[{"verbs":["create"],"resources":["pods"],"code":500}]}');
      }
      const checked = validateFaultRules(rules);
      if (!checked.ok) return bad(checked.message.replace(/^faults/, 'rules'));
      sim.injectFaults(checked.rules);
      return { status: 200, body: { faults: sim.faults() } };
    }
    case 'DELETE /sim/v1/faults':
      sim.clearFaults();
      return { status: 200, body: { faults: [] } };
    case 'GET /sim/v1/snapshot':
      return { status: 200, body: sim.snapshot() };
    case 'PUT /sim/v1/snapshot': {
      let snap: Snapshot;
      try {
        snap = JSON.parse(body) as Snapshot;
      } catch {
        return bad('body must be a snapshot as GET /sim/v1/snapshot returns it');
      }
      if (snap?.format !== 'platform-sim/snapshot@1' || snap.world?.format !== 'platform-sim/world@1') return bad('not a platform-sim snapshot (format platform-sim/snapshot@1)');
      sim.replaceWorld(snap.world);
      return { status: 200, body: { hash: sim.hash() } };
    }
    default:
      return { status: 404, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 } };
  }
}
