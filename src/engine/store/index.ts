// The store's public surface.
export { openStore, rebuildStore, type RebuildOutcome, type Store } from './store.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { DATABASE_FILE, defaultDataDir } from './paths.js';
export { electronBindingPath, resolveNativeBinding } from './native.js';
export { DEFAULT_SETTINGS, type ProjectRecord } from './projects.js';
export { runId, type RunFilter, type StoredRun } from './runs.js';
export { readAnswerDetail, readPatchDetail, readTickDetail, RELAIS_DIR, TICK_HISTORY_DIR } from './files-of-truth.js';
export type { ProjectRef } from './reindex.js';
