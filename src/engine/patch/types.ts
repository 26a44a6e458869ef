import type { ClosestLines } from './closest.js';
import type { Failure } from '../result.js';

/** How the body of a file block is to be applied. */
export type PatchStrategy = 'replace' | 'unified' | 'search-replace' | 'v4a';

/** The format an operation was written in: Relay Desk's own dialect or one an assistant uses natively. */
export type AnswerFormat = 'relay' | 'git-diff' | 'v4a' | 'search-replace' | 'whole-file';

/** Where in the answer an operation comes from, for refusals and replies. */
export interface OperationOrigin {
  readonly format: AnswerFormat;
  /** 1-based line of the answer where the block (or envelope section) starts. */
  readonly line: number;
}

/** One change a response asks for, in the order the response gives them. */
export type FileOperation =
  | {
      readonly kind: 'write';
      readonly path: string;
      readonly strategy: PatchStrategy;
      /** Block body with LF line endings, exactly as written between the fences. */
      readonly body: string;
      /** The strategy word the header used, when there was one (for messages). */
      readonly declaredStrategy?: string;
      /** True when no strategy word was given and the body looked like a patch. */
      readonly inferred?: boolean;
      readonly origin?: OperationOrigin;
    }
  | { readonly kind: 'delete'; readonly path: string; readonly origin?: OperationOrigin }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string; readonly origin?: OperationOrigin };

/** The final YAML block of a response. */
export interface ControlBlock {
  readonly projectId: string;
  readonly uuid: string;
  readonly gitCommitMsg?: string;
  readonly promptSummary?: string;
  readonly changeSummary?: readonly unknown[];
}

/**
 * An answer read into operations. `dialect` says how it was read: 'relay' (file blocks with
 * headers and a control block, Relay Desk's own format) or 'native' (the formats assistants
 * write on their own: git diffs, V4A envelopes, SEARCH/REPLACE, labelled whole files).
 */
export interface ParsedAnswer {
  readonly control: ControlBlock | null;
  readonly dialect: 'relay' | 'native';
  readonly operations: readonly FileOperation[];
  /** Prose outside the file blocks, in order. */
  readonly reasoning: readonly string[];
  /** Things the parser tolerated and the user may want to know. */
  readonly warnings: readonly string[];
}

/** A response in Relay Desk's own format: an answer with its control block. */
export interface ParsedResponse extends ParsedAnswer {
  readonly control: ControlBlock;
}

export type ParseFailureCode =
  | 'EMPTY_RESPONSE'
  | 'NO_CONTROL_BLOCK'
  | 'INVALID_CONTROL_BLOCK'
  | 'TRUNCATED_RESPONSE'
  | 'NO_OPERATIONS'
  | 'UNHEADED_FILE_BLOCK'
  | 'INVALID_RENAME_BLOCK'
  | 'NOTHING_TO_APPLY'
  | 'PATCH_MALFORMED'
  | 'TOO_MANY_CHANGES'
  | 'FRAGMENT_NOT_FILE';

export type ApplyFailureCode =
  | 'UNSAFE_PATH'
  | 'FILE_NOT_FOUND'
  | 'FILE_EXISTS'
  | 'BINARY_FILE'
  | 'ENCODING_UNSUPPORTED'
  | 'PATH_CASE_CLASH'
  | 'SEARCH_NOT_FOUND'
  | 'SEARCH_AMBIGUOUS'
  | 'SEARCH_MALFORMED'
  | 'HUNK_NOT_FOUND'
  | 'HUNK_AMBIGUOUS'
  | 'DIFF_MALFORMED'
  | 'LAZY_PLACEHOLDER'
  | 'EMPTY_REPLACEMENT'
  | 'RENAME_SOURCE_MISSING'
  | 'RENAME_TARGET_EXISTS'
  | 'DELETE_MISSING'
  | 'PLAN_TOO_LARGE';

/**
 * A refusal of the patch engine: a Failure plus what a person or the assistant needs to fix it.
 * Every extra field is optional; plain Failures are PatchFailures too.
 */
export interface PatchFailure<Code extends string = string> extends Failure<Code> {
  /** The lines an edit looked for in the file (context and removed lines). */
  readonly expected?: readonly string[];
  /** The lines of the current file most like `expected`. */
  readonly closest?: ClosestLines;
  /** Index of the failing operation in the parsed answer. */
  readonly operation?: number;
  /** Which edit of the operation failed ("SEARCH block 2", "hunk 3", "section 1"). */
  readonly edit?: string;
  /** For an ambiguous edit: the 1-based lines where it matches. */
  readonly lines?: readonly number[];
}

/** A failed result carrying a PatchFailure. */
export function failPatch<Code extends string>(code: Code, message: string, extra: Omit<PatchFailure<Code>, 'code' | 'message'> = {}): { readonly ok: false; readonly error: PatchFailure<Code> } {
  return { ok: false, error: { code, message, ...extra } };
}
