// `relais`: the entry point. `relais --version` answers without loading the command parser.
import { asksOnlyVersion, VERSION } from './version.js';

if (asksOnlyVersion(process.argv.slice(2))) process.stdout.write(`${VERSION}\n`);
else await (await import('./relais-program.js')).main();
