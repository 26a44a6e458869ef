// The names of a Relay project's files, apart from the config module so that finding a project
// (every CLI command does it first) does not load the config's schema.

/** The project's config file, at its root. */
export const CONFIG_FILE = 'relay.config.json';
/** The folder of transaction records, at the project's root. */
export const STATE_DIR = '.relaycode';
