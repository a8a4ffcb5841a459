// Process entry point: real stdio and environment in, exit code out.
import { keepInspectorClosed } from '../io/scenario-module.ts';
import { main } from './cli.ts';

// A SIGUSR1 would open the inspector on 127.0.0.1:9229, which runs the code of whoever connects (issue 20:
// a scenario module signalled its parent). The CLI never wants it; `node --inspect` still opens it.
if (process.platform !== 'win32') process.on('SIGUSR1', keepInspectorClosed);

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  stdoutIsTty: process.stdout.isTTY === true,
  stderrIsTty: process.stderr.isTTY === true,
  columns: process.stdout.columns,
});
