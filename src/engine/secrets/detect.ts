// Finding and withholding secrets in text, with the one rule table (rules.ts). Used wherever text
// leaves Relay Desk or a child could inherit it: handoff briefs, MCP tool output, error messages
// built from an agent's output, logs and notifications.
import { SECRET_RULES, type SecretRuleId } from './rules.js';

/** The id a finding carries when the text held the value of a secret-looking environment variable. */
export const ENV_VALUE_RULE = 'env-secret-value';

/** Every id a finding can carry: a rule of the table, or a known value from the environment. */
export type SecretFindingId = SecretRuleId | typeof ENV_VALUE_RULE;

/** One secret in a text: which rule found it, where it is (UTF-16 offsets, end exclusive), and its 1-based line. */
export interface SecretFinding {
  readonly ruleId: SecretFindingId;
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

export interface FindOptions {
  /**
   * Exact values known to be secret (the values of the caller's secret-looking environment
   * variables, see secretValuesOf): found wherever they occur, even when no rule knows their shape.
   */
  readonly knownValues?: readonly string[];
}

/** Known values shorter than this are not searched for: they would match ordinary words. */
export const MIN_KNOWN_VALUE_LENGTH = 8;

interface Span {
  readonly ruleId: SecretFindingId;
  readonly priority: number;
  readonly start: number;
  readonly end: number;
}

/** The span a match withholds: its `secret…` group when the rule has one, else the whole match. */
function secretSpan(match: RegExpExecArray): { start: number; end: number; text: string } | null {
  const groups = match.indices?.groups;
  if (groups) {
    for (const [name, range] of Object.entries(groups)) {
      if (name.startsWith('secret') && range) return { start: range[0], end: range[1], text: match.groups![name]! };
    }
  }
  if (match[0].length === 0) return null;
  return { start: match.index, end: match.index + match[0].length, text: match[0] };
}

function ruleSpans(text: string): Span[] {
  const lower = text.toLowerCase();
  const spans: Span[] = [];
  SECRET_RULES.forEach((rule, priority) => {
    if (!rule.keywords.some((k) => lower.includes(k))) return;
    // A fresh copy: the table's regexes are shared and `lastIndex` is state.
    const regex = new RegExp(rule.pattern.source, rule.pattern.flags);
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0].length === 0) regex.lastIndex += 1;
      const span = secretSpan(match);
      if (!span) continue;
      if (rule.accept && !rule.accept(span.text, match)) continue;
      spans.push({ ruleId: rule.id, priority, start: span.start, end: span.end });
    }
  });
  return spans;
}

function knownValueSpans(text: string, values: readonly string[]): Span[] {
  const spans: Span[] = [];
  for (const value of values) {
    if (value.length < MIN_KNOWN_VALUE_LENGTH) continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
      spans.push({ ruleId: ENV_VALUE_RULE, priority: SECRET_RULES.length, start: at, end: at + value.length });
    }
  }
  return spans;
}

/** Overlapping spans become one, named by the most specific rule among them. */
function merge(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.start < last.end) {
      out[out.length - 1] = {
        ruleId: span.priority < last.priority ? span.ruleId : last.ruleId,
        priority: Math.min(span.priority, last.priority),
        start: last.start,
        end: Math.max(last.end, span.end),
      };
    } else out.push(span);
  }
  return out;
}

/** Every secret in `text`, in order, overlapping matches merged (so withholding them leaves no piece behind). */
export function findSecrets(text: string, options: FindOptions = {}): SecretFinding[] {
  if (text.length === 0) return [];
  const spans = merge([...ruleSpans(text), ...knownValueSpans(text, options.knownValues ?? [])]);
  const findings: SecretFinding[] = [];
  let line = 1;
  let scanned = 0;
  for (const span of spans) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < span.start; i = text.indexOf('\n', i + 1)) line += 1;
    scanned = span.start;
    findings.push({ ruleId: span.ruleId, start: span.start, end: span.end, line });
  }
  return findings;
}

/** True when `text` holds anything a rule (or a known value) calls a secret. */
export function containsSecret(text: string, options: FindOptions = {}): boolean {
  return findSecrets(text, options).length > 0;
}

/** The marker a withheld secret is replaced with. */
export function withheldMarker(ruleId: SecretFindingId): string {
  return `[secret withheld: ${ruleId}]`;
}

/**
 * The text with every secret replaced by `[secret withheld: <rule id>]`. Assignments keep their
 * name (`password=[secret withheld: secret-assignment]`); a PEM private key goes whole, up to
 * its END line. Redacting twice changes nothing.
 */
export function redactSecrets(text: string, options: FindOptions = {}): string {
  const findings = findSecrets(text, options);
  if (findings.length === 0) return text;
  let out = '';
  let at = 0;
  for (const finding of findings) {
    out += text.slice(at, finding.start) + withheldMarker(finding.ruleId);
    at = finding.end;
  }
  return out + text.slice(at);
}

/** redactSecrets over every string of a JSON-like value (object keys are left as they are). */
export function redactSecretsDeep<T>(value: T, options: FindOptions = {}): T {
  if (typeof value === 'string') return redactSecrets(value, options) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecretsDeep(item, options)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactSecretsDeep(item, options)])) as T;
  }
  return value;
}
