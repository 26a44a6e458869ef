// `relay`: the entry point. It reads nothing but its arguments before loading the program, so
// `relay --version` answers without loading the command parser.
import { asksOnlyVersion, VERSION } from './version.js';

// The app's "Start in a terminal" runs this file with its Electron binary as Node; the agents a
// handoff starts (and anything they start) must not inherit that switch.
delete process.env.ELECTRON_RUN_AS_NODE;
const args = process.argv.slice(2);
if (asksOnlyVersion(args)) process.stdout.write(`${VERSION}\n`);
else await (await import('./relay-program.js')).main(args);
