/** The in-process driver: a Simulation made from the scenario's seed, start time and options. */
import { createSimulation } from '../edges/simulation/create.ts';
import type { Simulation, Snapshot } from '../edges/simulation/simulation.ts';
import type { SimulationOptions } from '../sim/options.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';
import type { KubeObject } from '../api/meta.ts';
import { entriesAfter } from '../store/history.ts';
import type { Scenario } from './format.ts';
import type { Answer, DriverRequest, ScenarioDriver } from './driver.ts';

export class InProcessDriver implements ScenarioDriver {
  readonly eventual = false;
  readonly #sim: Simulation;
  #seenSeq = -1;
  readonly #snapshots = new Map<string, Snapshot>();
  readonly #written = new Map<number, KubeObject>();

  private constructor(sim: Simulation) {
    this.#sim = sim;
  }

  static async start(scenario: Scenario, seed: number): Promise<InProcessDriver> {
    const options: SimulationOptions = { ...(scenario.options as SimulationOptions | undefined), seed, ...(scenario.startTime === undefined ? {} : { startTime: scenario.startTime }) };
    return new InProcessDriver(await createSimulation(options));
  }

  /** The simulation (reports read its trace and world). */
  get simulation(): Simulation {
    return this.#sim;
  }

  cannot(): undefined {
    return undefined;
  }

  pause(): Promise<void> {
    return Promise.resolve();
  }

  async request(req: DriverRequest): Promise<Answer> {
    const r = await this.#sim.request({ method: req.method, path: req.path, ...(req.headers === undefined ? {} : { headers: req.headers as Record<string, string | string[]> }), ...(req.body === undefined ? {} : { body: req.body as object }), ...(req.clientCertificate === undefined ? {} : { clientCertificate: req.clientCertificate }) });
    return { status: r.status, headers: r.headers, body: r.body };
  }

  now(): Promise<string> {
    return Promise.resolve(this.#sim.now());
  }

  advance(duration: string): Promise<void> {
    return this.#sim.advance(duration);
  }

  settle(): Promise<void> {
    return this.#sim.settle();
  }

  setFaults(rules: Parameters<ScenarioDriver['setFaults']>[0]): Promise<void> {
    // A fault step replaces the rules in force.
    this.#sim.clearFaults();
    if (rules !== null) this.#sim.injectFaults(rules);
    return Promise.resolve();
  }

  snapshot(name: string): Promise<void> {
    this.#snapshots.set(name, this.#sim.snapshot());
    return Promise.resolve();
  }

  restore(name: string): Promise<void> {
    // As PUT /sim/v1/snapshot: the same simulation (and trace) carries on from the kept world.
    this.#sim.replaceWorld(this.#snapshots.get(name)!.world);
    return Promise.resolve();
  }

  certificateRequest(spec: Parameters<ScenarioDriver['certificateRequest']>[0]): Promise<{ request: string; privateKey: string }> {
    return this.#sim.createCertificateRequest(spec);
  }

  newEvents(): Promise<readonly TraceEvent[]> {
    const events = this.#sim.trace().filter((e) => e.seq > this.#seenSeq);
    if (events.length > 0) this.#seenSeq = events[events.length - 1]!.seq;
    // The objects written, read from the watch log now (compaction drops old entries later).
    const log = this.#sim.world.log;
    for (const e of events) {
      if (e.type !== 'write' || this.#written.has(e.rv)) continue;
      const entry = entriesAfter(log, e.rv - 1).next();
      if (entry.done !== true && entry.value.rv === e.rv) this.#written.set(e.rv, entry.value.object);
    }
    return Promise.resolve(events);
  }

  /** The object as a write of the trace left it (reports colour lives by it). */
  objectAt(rv: number): KubeObject | undefined {
    return this.#written.get(rv);
  }

  close(): Promise<void> {
    this.#sim.close();
    return Promise.resolve();
  }
}
