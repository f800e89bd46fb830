/**
 * Process entry: runs the CLI with the real stdout/stderr and stops a server cleanly on SIGINT
 * and SIGTERM.
 */
import { cli } from './cli.ts';

const result = await cli(process.argv.slice(2), { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) });
const server = result.server;
if (server === undefined) process.exit(result.code);
else {
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
