/** The result of applying a patch: the new document, or the API error that refuses it. */
import type { JsonValue } from '../../core/json.ts';
import type { ApiError } from '../../core/status.ts';

export type PatchResult = { ok: true; value: JsonValue } | { ok: false; error: ApiError };

