/** A JSON object seen through `unknown`. */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** The value as an object, or null. */
export function asRecord(value: unknown): JsonRecord | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
}

/** The value as an array, or empty. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value as a string, or null. */
export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The value as a finite number, or null. */
export function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Parses JSON text, returning null instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
