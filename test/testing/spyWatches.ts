/** Records the watch streams `sim.respond` opens, to see that an abort ends them on the simulation's side. */
import type { Simulation } from '../../src/index.ts';
import type { WatchStream } from '../../src/edges/simulation/watchStream.ts';

export function spyWatches(s: Simulation): WatchStream[] {
  const opened: WatchStream[] = [];
  const respond = s.respond.bind(s);
  s.respond = async (req) => {
    const answer = await respond(req);
    if (answer.watch !== undefined) opened.push(answer.watch);
    return answer;
  };
  return opened;
}
