// `relais`: the entry point. `relais --version` answers without loading the command parser.
import { asksOnlyVersion, VERSION } from './version.js';

const args = process.argv.slice(2);
if (asksOnlyVersion(args)) process.stdout.write(`${VERSION}\n`);
else void import('./relais-program.js').then((program) => program.main(args));
