// Every test (and every process a test starts) gets a git identity, so commits in temp repos
// work on a machine with no global git config.
process.env.GIT_AUTHOR_NAME = 'Relay Desk Test';
process.env.GIT_AUTHOR_EMAIL = 'test@relay-desk.invalid';
process.env.GIT_COMMITTER_NAME = 'Relay Desk Test';
process.env.GIT_COMMITTER_EMAIL = 'test@relay-desk.invalid';
process.env.GIT_CONFIG_NOSYSTEM = '1';
