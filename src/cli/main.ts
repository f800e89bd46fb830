/**
 * Process entry: runs the CLI with the real stdout/stderr and stops a server cleanly on SIGINT
 * and SIGTERM (a second signal exits at once). `npm start` runs this file in the npm process's
 * own child (`exec node --import tsx …`: no shell or tsx parent in between that a signal would
 * stop while leaving this process holding the port).
 */
import { cli } from './cli.ts';

const result = await cli(process.argv.slice(2), { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) });
const server = result.server;
if (server === undefined) process.exit(result.code);
else {
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(0);
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
