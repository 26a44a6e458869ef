import { printError } from './io.js';

// The tick runner CLI arrives with the tick-runner issue.
printError('relais: the tick runner is not built yet.');
process.exitCode = 1;
