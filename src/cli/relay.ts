// `relay`: the entry point. It reads nothing but its arguments before loading the program, so
// `relay --version` answers without loading the command parser.
import { runRelayCli } from './relay-embedded.js';

void runRelayCli(process.argv.slice(2));
