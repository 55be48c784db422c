/**
 * A callback body that parses (JSON or a form) but carries none of the fields the till knows
 * (no reference, session id or account number under any name it reads): a provider written
 * from the interface alone names its fields as it likes. The body is still a hint: its values
 * may hold a sale's reference or account number whatever the field is called, and a sample of
 * it (cut short, secret-looking fields masked) is kept for support.
 */
export interface ForeignShape {
  /** The body's field names (dotted for nested ones), in order, at most MAX_FIELDS. */
  readonly fields: readonly string[];
  /** Every scalar value of the body as text, at most MAX_FIELDS, each at most MAX_VALUE_LENGTH. */
  readonly values: readonly string[];
  /** `name=value; ...` cut at SAMPLE_LENGTH characters, secret-looking values masked. */
  readonly sample: string;
}

export const MAX_FIELDS = 50;
export const MAX_VALUE_LENGTH = 256;
export const SAMPLE_LENGTH = 400;
const MAX_DEPTH = 4;
/** A field whose name says it holds a credential or card data: its value is never kept. */
const SECRET_FIELD = /secret|token|passw|api[-_]?key|auth|signature|hash|\bpin\b|cvv|card/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

export function foreignShape(body: unknown): ForeignShape {
  const fields: string[] = [];
  const values: string[] = [];
  const shown: string[] = [];
  function walk(value: unknown, path: string, depth: number): void {
    if (fields.length >= MAX_FIELDS) return;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const text = String(value).replace(CONTROL, ' ').trim().slice(0, MAX_VALUE_LENGTH);
      const name = path === '' ? '(body)' : path;
      const secret = SECRET_FIELD.test(name);
      fields.push(name);
      if (!secret && text !== '') values.push(text);
      shown.push(`${name}=${secret ? '***' : text.slice(0, 60)}`);
      return;
    }
    if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    for (const [key, item] of entries) {
      walk(item, path === '' ? key : `${path}.${key}`, depth + 1);
    }
  }
  walk(body, '', 0);
  const joined = shown.join('; ');
  return {
    fields,
    values,
    sample: joined.length > SAMPLE_LENGTH ? `${joined.slice(0, SAMPLE_LENGTH)}...` : joined,
  };
}
