/**
 * What a scenario runs against. In process: a Simulation made for the scenario. Remote: any server
 * of this API (this project's `serve`, or a real cluster in k8s.io mode) — there virtual time,
 * faults and snapshots exist only when the server has platform-sim's control endpoints, and the
 * runner skips the steps that need what a target lacks, saying why.
 */
import type { FaultRule } from '../sim/faults.ts';
import type { KubeObject } from '../api/meta.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';
import type { CertificateRequestSpec } from '../edges/simulation/simulation.ts';

export interface DriverRequest {
  readonly method: string;
  readonly path: string;
  /** A list: the header sent once per value. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /** An object (sent as JSON) or the exact text. */
  readonly body?: unknown;
  readonly clientCertificate?: string;
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** Parsed JSON, or the text. */
  readonly body: unknown;
}

/** What a scenario step may need beyond plain requests. */
/** `scenario`: the scenario as a whole (a running server cannot take another scenario's options). */
export type Capability = 'scenario' | 'time' | 'faults' | 'snapshots' | 'clientCertificates';

export interface ScenarioDriver {
  /** Why the target cannot do this (a sentence), or undefined when it can. */
  cannot(capability: Capability): string | undefined;
  /** True where controllers run on their own (a real cluster): checks are retried until they hold or time runs out. */
  readonly eventual: boolean;
  request(req: DriverRequest): Promise<Answer>;
  /** Virtual time (RFC 3339), or undefined when the target has none. */
  now(): Promise<string | undefined>;
  advance(duration: string): Promise<void>;
  settle(): Promise<void>;
  setFaults(rules: readonly FaultRule[] | null): Promise<void>;
  snapshot(name: string): Promise<void>;
  restore(name: string): Promise<void>;
  certificateRequest(spec: CertificateRequestSpec): Promise<{ readonly request: string; readonly privateKey: string }>;
  /** Waits (wall time) before a check is tried again; only drivers with `eventual` are asked. */
  pause(ms: number): Promise<void>;
  /** Trace events since the previous call (empty where the target keeps none). */
  newEvents(): Promise<readonly TraceEvent[]>;
  /** The object as the write at this revision left it, where the driver can tell (in process). */
  objectAt?(rv: number): KubeObject | undefined;
  close(): Promise<void>;
}
