import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fail, ok, type Result } from '../result.js';
import { REPORT_SCHEMA } from './schemas.js';

/** Checks a value against one JSON Schema; `errors` are "<pointer>: <problem>" lines. */
export type SchemaCheck<T> = (value: unknown) => { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly string[] };

const compiled = new Map<string, ValidateFunction>();

/** Renders ajv's errors as short lines, e.g. "/scope/allowed_globs: must NOT have fewer than 1 items". */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  if (!errors) return [];
  const lines = errors
    .filter((e) => e.keyword !== 'if') // "must match then schema" repeats the real error below it
    .map((e) => {
      const where = e.instancePath === '' ? '(root)' : e.instancePath;
      const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
      return `${where}: ${e.message ?? e.keyword}${extra}`;
    });
  return [...new Set(lines)];
}

/**
 * Compiles a draft 2020-12 JSON Schema (cached by its text). Fails when the schema itself is
 * not a valid schema.
 */
export function compileSchema<T>(schema: unknown): Result<SchemaCheck<T>, 'SCHEMA_INVALID'> {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    // A fresh instance per schema: two schemas may share an $id (a user's edited copy).
    const ajv = new Ajv2020({ allErrors: true, strictSchema: true, strictRequired: false, strictTypes: false, strictTuples: false, allowUnionTypes: true });
    addFormats(ajv);
    try {
      validate = ajv.compile(schema as object);
    } catch (error) {
      return fail('SCHEMA_INVALID', (error as Error).message);
    }
    compiled.set(key, validate);
  }
  const fn = validate;
  return ok((value: unknown) => (fn(value) ? { ok: true as const, value: value as T } : { ok: false as const, errors: describeSchemaErrors(fn.errors) }));
}

let reportCheck: SchemaCheck<unknown> | undefined;

/** Checks a REPORT.json object against the shipped report schema. */
export function checkReport(value: unknown): ReturnType<SchemaCheck<unknown>> {
  if (!reportCheck) {
    const built = compileSchema<unknown>(REPORT_SCHEMA);
    if (!built.ok) throw new Error(`The shipped report schema does not compile: ${built.error.message}`);
    reportCheck = built.value;
  }
  return reportCheck(value);
}
