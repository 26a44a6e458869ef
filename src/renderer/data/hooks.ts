// react-query hooks over the contract. Reads are queries keyed by what they read; the event
// bridge invalidates them when the host announces a change. Mutations whose effect the host
// does not announce as an event (linter, watching, reindex) invalidate their queries themselves.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { ChannelInput, Run } from '../../shared/contract.js';
import type { Project, RunKind, TaskKind } from '../../shared/schemas.js';
import { relayCall } from './client';
import { liveStore } from './live-store';
import type { LiveState, LiveTask } from './live';
import { queryKeys, type RunFilter } from './query-keys';

/** Runs per page of History: large enough that scrolling rarely waits, small enough to answer at once. */
export const RUNS_PAGE_SIZE = 200;

export function useProjects() {
  return useQuery({ queryKey: queryKeys.projects(), queryFn: () => relayCall('listProjects', {}) });
}

export function useAppSettings() {
  return useQuery({ queryKey: queryKeys.appSettings(), queryFn: () => relayCall('getAppSettings', {}) });
}

export function useUpdateAppSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ChannelInput<'updateAppSettings'>) => relayCall('updateAppSettings', input),
    // App settings are not runtime events: the answer is the new truth.
    onSuccess: (settings) => client.setQueryData(queryKeys.appSettings(), settings),
  });
}

export function useRuntimeState() {
  return useQuery({ queryKey: queryKeys.runtime(), queryFn: () => relayCall('getRuntimeState', {}) });
}

/** History, newest first, a page at a time (keyset cursor from the host). */
export function useRunPages(filter: RunFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.runs(filter),
    queryFn: ({ pageParam }) => relayCall('listRuns', { ...filter, limit: RUNS_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** One run's detail; `null` asks for nothing (a view that may or may not be about a run). */
export function useRun(runId: string | null) {
  return useQuery({ queryKey: queryKeys.run(runId ?? ''), queryFn: () => relayCall('getRun', { runId: runId! }), enabled: runId !== null });
}

/** The run kind a task's history row has. */
export function runKindOfTask(kind: TaskKind): RunKind {
  switch (kind) {
    case 'patch':
    case 'revert':
      return 'patch';
    case 'ask':
      return 'relay';
    case 'commit':
      return 'tick';
    default:
      return kind;
  }
}

/** The history row a finished task left, found by its task id among the project's newest runs. */
export function useRunOfTask(task: LiveTask | null): Run | null {
  const done = task !== null && (task.state === 'completed' || task.state === 'failed');
  const query = useQuery({
    queryKey: task ? queryKeys.runsOfProject(task.projectId, runKindOfTask(task.kind)) : ['runs', 'none'],
    queryFn: () => relayCall('listRuns', { projectId: task!.projectId, kind: runKindOfTask(task!.kind), limit: 25 }),
    enabled: done,
  });
  if (!done || !query.data) return null;
  return query.data.runs.find((run) => run.taskId === task.taskId) ?? null;
}

export function useRegisterProject() {
  return useMutation({ mutationFn: (input: ChannelInput<'registerProject'>) => relayCall('registerProject', input) });
}

export function useRemoveProject() {
  return useMutation({ mutationFn: (projectId: string) => relayCall('removeProject', { projectId }) });
}

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ChannelInput<'updateProjectSettings'>) => relayCall('updateProjectSettings', input),
    // The host answers with the project as it now is: show that at once, then refetch, since
    // linter and watching changes are not runtime events.
    onSuccess: (project) => client.setQueryData<Project[]>(queryKeys.projects(), (list) => list?.map((p) => (p.projectId === project.projectId ? project : p))),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.projects() }),
  });
}

export function useReindex() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => relayCall('reindexProject', { projectId }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['runs'] }), client.invalidateQueries({ queryKey: ['run'] })]),
  });
}

export function useApplyPatch() {
  return useMutation({ mutationFn: (input: ChannelInput<'applyPatch'>) => relayCall('applyPatch', input) });
}

export function useChooseProject() {
  return useMutation({ mutationFn: (input: ChannelInput<'chooseProject'>) => relayCall('chooseProject', input) });
}

export function useApprove() {
  return useMutation({ mutationFn: (input: ChannelInput<'approve'>) => relayCall('approve', input) });
}

export function useReject() {
  return useMutation({ mutationFn: (input: ChannelInput<'reject'>) => relayCall('reject', input) });
}

export function useRevert() {
  return useMutation({ mutationFn: (input: ChannelInput<'revert'>) => relayCall('revert', input) });
}

/** "Retry after I edit the file": the kept answer of a run, applied again. */
export function useRetryAnswer() {
  return useMutation({ mutationFn: (input: ChannelInput<'retryAnswer'>) => relayCall('retryAnswer', input) });
}

/** What a tick would meet and may spend if it started now; asked afresh each time the confirmation opens. */
export function useTickPreview(projectId: string | null) {
  return useQuery({ queryKey: queryKeys.tickPreview(projectId ?? ''), queryFn: () => relayCall('previewTick', { projectId: projectId! }), enabled: projectId !== null, staleTime: 0, gcTime: 0 });
}

export function useRunTick() {
  return useMutation({ mutationFn: (projectId: string) => relayCall('runTick', { projectId }) });
}

export function useCommitTick() {
  return useMutation({ mutationFn: (input: ChannelInput<'commitTick'>) => relayCall('commitTick', input) });
}

export function useCancelTask() {
  return useMutation({ mutationFn: (taskId: string) => relayCall('cancelTask', { taskId }) });
}

export function useAsk() {
  return useMutation({ mutationFn: (input: ChannelInput<'ask'>) => relayCall('ask', input) });
}

export function useReview() {
  return useMutation({ mutationFn: (input: ChannelInput<'review'>) => relayCall('review', input) });
}

export function useBuildHandoff() {
  return useMutation({ mutationFn: (input: ChannelInput<'buildHandoff'>) => relayCall('buildHandoff', input) });
}

/** Opens the user's terminal running `relay handoff --resume … --to …` for a saved brief. */
export function useStartHandoffInTerminal() {
  return useMutation({ mutationFn: (input: ChannelInput<'startHandoffInTerminal'>) => relayCall('startHandoffInTerminal', input) });
}

/** A slice of the live state (tasks, notices), re-rendering only when it changes. */
export function useLive<T>(select: (state: LiveState) => T): T {
  return useSyncExternalStore(liveStore.subscribe, () => select(liveStore.getState()));
}

/** One task as the event stream has shown it so far (null before its first event). */
export function useLiveTask(taskId: string | null): LiveTask | null {
  return useLive((state) => (taskId ? (state.tasks[taskId] ?? null) : null));
}
