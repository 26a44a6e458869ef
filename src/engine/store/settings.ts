import type BetterSqlite3 from 'better-sqlite3';

/** The settings table: app-wide values as JSON. */
export function settingsRepository(db: BetterSqlite3.Database) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  return {
    get: (key: string): unknown => {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },
    set: (key: string, value: unknown): void => {
      set.run(key, JSON.stringify(value));
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
