/** How the body of a file block is to be applied. */
export type PatchStrategy = 'replace' | 'unified' | 'search-replace';

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
    }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string };

/** The final YAML block of a response. */
export interface ControlBlock {
  readonly projectId: string;
  readonly uuid: string;
  readonly gitCommitMsg?: string;
  readonly promptSummary?: string;
  readonly changeSummary?: readonly unknown[];
}

/** A response that is a patch. */
export interface ParsedResponse {
  readonly control: ControlBlock;
  readonly operations: readonly FileOperation[];
  /** Prose outside the file blocks, in order. */
  readonly reasoning: readonly string[];
  /** Things the parser tolerated and the user may want to know. */
  readonly warnings: readonly string[];
}

export type ParseFailureCode =
  | 'EMPTY_RESPONSE'
  | 'NO_CONTROL_BLOCK'
  | 'INVALID_CONTROL_BLOCK'
  | 'TRUNCATED_RESPONSE'
  | 'NO_OPERATIONS'
  | 'UNHEADED_FILE_BLOCK'
  | 'INVALID_RENAME_BLOCK';

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
  | 'RENAME_SOURCE_MISSING'
  | 'RENAME_TARGET_EXISTS'
  | 'DELETE_MISSING';
