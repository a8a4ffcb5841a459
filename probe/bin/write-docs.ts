// `npm run docs`: rewrite docs/cli.md and every marked sample block in README.md and docs/**/*.md from
// real runs of the CLI (probe/bin/docs.ts). `--offline` leaves the samples that need the npm registry as
// they are. Exit 0 written (or already current), 2 bad usage or a bad marker (nothing written).
import { writeDocs } from './docs.ts';
import { oneLine } from '../core/errors.ts';
import { EXIT } from '../core/exit-code.ts';
import { PROJECT_ROOT } from '../io/project.ts';

const args = process.argv.slice(2);
const unknown = args.find((arg) => arg !== '--offline');
let code: number;
if (unknown !== undefined) {
  process.stderr.write(`npm run docs: unknown argument '${oneLine(unknown)}': the only option is --offline\n`);
  code = EXIT.usage;
} else {
  code = await writeDocs({
    root: PROJECT_ROOT,
    run: { cwd: PROJECT_ROOT },
    offline: args.includes('--offline'),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
// The CLI's pools keep idle worker threads for a next run, which this script does not have.
process.exit(code);
