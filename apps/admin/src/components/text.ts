/**
 * A value from a form or a JSON answer as text: strings as they are, numbers and booleans written out,
 * nothing as ''. Objects and arrays as JSON, never "[object Object]".
 */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
