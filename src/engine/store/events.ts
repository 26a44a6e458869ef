import type BetterSqlite3 from 'better-sqlite3';
import type { EventEnvelope, RuntimeEvent } from '../../shared/events.js';

interface Row {
  readonly seq: number;
  readonly ts: number;
  readonly payload: string;
}

function scope(event: RuntimeEvent): { taskId: string | null; projectId: string | null } {
  return {
    taskId: 'taskId' in event ? event.taskId : null,
    projectId: 'projectId' in event ? event.projectId : null,
  };
}

/** The events table: the runtime's event log, linked to runs by task id. */
export function eventsRepository(db: BetterSqlite3.Database) {
  const insert = db.prepare('INSERT INTO events (seq, ts, type, task_id, project_id, payload) VALUES (?, ?, ?, ?, ?, ?)');
  const forTask = db.prepare<[string, number], Row>('SELECT seq, ts, payload FROM events WHERE task_id = ? ORDER BY seq LIMIT ?');
  const last = db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM events');
  const appendMany = db.transaction((envelopes: readonly EventEnvelope[]) => {
    for (const e of envelopes) {
      const { taskId, projectId } = scope(e.event);
      insert.run(e.seq, e.ts, e.event.type, taskId, projectId, JSON.stringify(e.event));
    }
  });
  return {
    /** Appends envelopes in one transaction. */
    append: (envelopes: readonly EventEnvelope[]): void => {
      if (envelopes.length > 0) appendMany(envelopes);
    },
    /** A task's events, oldest first. */
    forTask: (taskId: string, limit = 1000): EventEnvelope[] =>
      forTask.all(taskId, limit).map((row) => ({ seq: row.seq, ts: row.ts, event: JSON.parse(row.payload) as RuntimeEvent })),
    /** The highest stored seq (0 when there is none): where the next runtime starts counting. */
    lastSeq: (): number => last.get()?.seq ?? 0,
  };
}

export type EventsRepository = ReturnType<typeof eventsRepository>;
