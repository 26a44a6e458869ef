// `npm run bench`: prints speed figures. Each bench/*.bench.ts module exports `run()`, which
// prints its own table; nothing here asserts timings (targets are read by people).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const only = process.argv[2];
const dir = import.meta.dirname;
const modules = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => !only || name.startsWith(only))
  .sort();
for (const name of modules) {
  const mod = (await import(pathToFileURL(path.join(dir, name)).href)) as { run: () => Promise<void> };
  console.log(`\n## ${name.replace('.bench.ts', '')}`);
  await mod.run();
}
