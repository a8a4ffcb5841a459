import { join } from 'node:path';
import { PROJECT_ROOT } from '../commands/io.ts';
import { writeFileAtomic } from '../io/files.ts';
import { serializeJsonSchema } from '../core/result-json-schema.ts';

const path = join(PROJECT_ROOT, 'results', 'schema.json');
writeFileAtomic(path, serializeJsonSchema());
process.stdout.write(`wrote ${path}\n`);
