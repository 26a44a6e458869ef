// History row ids, as the store makes them: the project, the run kind and the key its file of
// truth uses. Used to link a patch to its revert. One definition, shared with the store.
export { runId as runIdOf } from '../../shared/facts.js';
