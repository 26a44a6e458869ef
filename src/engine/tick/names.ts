// relais's file names, apart from the config module so that finding a project does not load the
// config's schema.

/** The one config file of Relais, at the repository root. */
export const TICK_CONFIG_FILE = 'relais.config.json';
