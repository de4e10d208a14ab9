import type { z } from 'zod';

/** Sentences by field name; a field without a problem is absent. */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/**
 * What the contract's schema says about a form's value, field by field (the first sentence per field),
 * so the form checks exactly what the server will. `labels` names a field whose raw input is not even of
 * the right type (e.g. letters in a number field).
 */
export function schemaFieldErrors<K extends string>(
  schema: z.ZodType,
  value: unknown,
  labels: Partial<Record<K, string>> = {},
): FieldErrors<K> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: FieldErrors<K> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as K;
    if (!field || errors[field]) continue;
    const label = labels[field];
    errors[field] = issue.code === 'invalid_type' && label ? `${label} must be a number` : issue.message;
  }
  return errors;
}

/** The server's field errors under `prefix` (e.g. `configs.0.`), keyed by the field name that follows it. */
export function fieldsUnder(fields: Record<string, string>, prefix = ''): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    if (!path.startsWith(prefix)) continue;
    const field = path.slice(prefix.length).split('.')[0];
    if (field && !errors[field]) errors[field] = message;
  }
  return errors;
}

export const hasFieldErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);
