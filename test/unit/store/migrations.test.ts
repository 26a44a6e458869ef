import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, StoreError, type Migration } from '../../../src/engine/store/index.js';
import { tempDir } from '../../helpers/temp.js';

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
}

function applied(file: string): Array<{ version: number; name: string }> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT version, name FROM migrations ORDER BY version').all() as Array<{ version: number; name: string }>;
  } finally {
    db.close();
  }
}

function expectStoreError(fn: () => unknown, code: string): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe(code);
    return error as StoreError;
  }
  throw new Error(`expected a StoreError ${code}`);
}

const addNotes: Migration = { version: 2, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;' };

describe('store migrations', () => {
  it('creates the schema in a new file, records the migration, and uses WAL', () => {
    const file = path.join(tempDir(), 'data', 'relay-desk.db');
    const store = openStore({ file });
    store.settings.set('theme', 'dark');
    expect(existsSync(`${file}-wal`)).toBe(true);
    store.close();
    expect(tables(file)).toEqual(['events', 'migrations', 'projects', 'runs', 'settings']);
    expect(applied(file)).toEqual([{ version: 1, name: MIGRATIONS[0]!.name }]);
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('applies nothing twice and keeps the data when opened again', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    openStore({ file }).close();
    const store = openStore({ file });
    store.settings.set('k', { a: 1 });
    store.close();
    const again = openStore({ file });
    expect(again.settings.get('k')).toEqual({ a: 1 });
    again.close();
    expect(applied(file)).toHaveLength(1);
  });

  it('applies a migration appended later, once', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    openStore({ file }).close();
    openStore({ file, migrations: [...MIGRATIONS, addNotes] }).close();
    openStore({ file, migrations: [...MIGRATIONS, addNotes] }).close();
    expect(applied(file).map((m) => m.version)).toEqual([1, 2]);
    expect(tables(file)).toContain('notes');
  });

  it('refuses a database written by a newer build', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    openStore({ file, migrations: [...MIGRATIONS, addNotes] }).close();
    const error = expectStoreError(() => openStore({ file }), 'STORE_TOO_NEW');
    expect(error.message).toContain('newer Relay Desk');
  });

  it('refuses a database whose recorded migration differs from this build', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    openStore({ file, migrations: [...MIGRATIONS, addNotes] }).close();
    expectStoreError(() => openStore({ file, migrations: [...MIGRATIONS, { ...addNotes, name: 'renamed' }] }), 'STORE_MIGRATION_MISMATCH');
  });

  it('rolls a failing migration back entirely and names it', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    openStore({ file }).close();
    const broken: Migration = { version: 2, name: 'half', sql: 'CREATE TABLE half (id INTEGER PRIMARY KEY) STRICT; INSERT INTO no_such_table VALUES (1);' };
    const error = expectStoreError(() => openStore({ file, migrations: [...MIGRATIONS, broken] }), 'STORE_MIGRATION_FAILED');
    expect(error.message).toContain('Migration 2 "half"');
    expect(tables(file)).not.toContain('half');
    expect(applied(file).map((m) => m.version)).toEqual([1]);
    openStore({ file }).close();
  });
});
