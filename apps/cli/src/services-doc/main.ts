import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { REGENERATE } from './render-markdown';
import { SERVICES_DOC, currentServicesDoc, generateServicesDoc } from './services-doc';

// `tsx src/services-doc/main.ts` writes docs/services.md; with --check it only says whether it is current.
const generated = await generateServicesDoc();
const where = relative(process.cwd(), SERVICES_DOC);
if (process.argv.includes('--check')) {
  const current = (await currentServicesDoc()) === generated;
  process.stdout.write(current ? `${where} is current\n` : `${where} is stale: run ${REGENERATE}\n`);
  process.exitCode = current ? 0 : 1;
} else {
  await writeFile(SERVICES_DOC, generated);
  process.stdout.write(`wrote ${where}\n`);
}
