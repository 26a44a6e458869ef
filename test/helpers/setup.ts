import os from 'node:os';

// Every test (and every process a test starts) gets a git identity and no global or system git
// config, so commits in temp repos work, and behave the same, on a fresh machine (no
// ~/.gitconfig) and on a developer's (whose ~/.gitconfig may set hooks, signing or aliases).
process.env.GIT_AUTHOR_NAME = 'Relay Desk Test';
process.env.GIT_AUTHOR_EMAIL = 'test@relay-desk.invalid';
process.env.GIT_COMMITTER_NAME = 'Relay Desk Test';
process.env.GIT_COMMITTER_EMAIL = 'test@relay-desk.invalid';
process.env.GIT_CONFIG_GLOBAL = os.devNull;
process.env.GIT_CONFIG_NOSYSTEM = '1';
// Children get an allow-list environment (src/engine/secrets/child-env.ts); the fake agents and
// terminals of the tests are steered by FAKE_* variables, which the user-facing RELAY_PASS_ENV
// lets through (a `PREFIX_*` family passes only values that look like no secret).
process.env.RELAY_PASS_ENV = 'FAKE_*';
