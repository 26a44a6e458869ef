// The store's public surface.
export { openStore, rebuildStore, type RebuildOutcome, type Store } from './store.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { CHOOSE_ANOTHER_DATA_DIR, DATA_DIR_ENV, DATABASE_FILE, defaultDataDir, ensureDataDir, tightenFile } from './paths.js';
export { describeHeal, openStoreHealing, type HealedStore, type HealReport } from './heal.js';
export { PROJECTS_FILE } from './project-list.js';
export { electronBindingPath, resolveNativeBinding } from './native.js';
export { DEFAULT_SETTINGS, type ProjectRecord } from './projects.js';
export { runId, type RunFilter, type StoredRun } from './runs.js';
export type { IndexedRecord, ProjectRef } from './reindex.js';
