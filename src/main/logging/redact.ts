/**
 * Redaction shared by the logger and anything else that writes text out: values registered as
 * secrets are scrubbed wherever they appear, fields whose names look secret are masked, and
 * header-like "secretKey: …" / "Bearer …" fragments are cut.
 */
export const REDACTED = '[redacted]';

const SECRET_KEY_NAME =
  /secret|token|passw|authori[sz]ation|api[-_]?key|cookie|authtoken|credential/i;
const SECRET_FRAGMENTS: readonly RegExp[] = [
  /(secret[-_]?key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  /(authtoken["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
];
/** Values shorter than this are not scrubbed by value: they would mangle ordinary text. */
const MIN_SECRET_LENGTH = 6;

export interface Redactor {
  addSecret(value: string | undefined | null): void;
  redactText(text: string): string;
  redactValue(value: unknown): unknown;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  let pattern: RegExp | null = null;

  function redactText(text: string): string {
    let out = text;
    if (pattern) out = out.replace(pattern, REDACTED);
    for (const fragment of SECRET_FRAGMENTS) out = out.replace(fragment, `$1${REDACTED}`);
    return out;
  }

  function redactValue(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return redactText(value);
    if (value === null || typeof value !== 'object' || depth > 8) return value;
    if (value instanceof Error) {
      return {
        name: value.name,
        message: redactText(value.message),
        stack: value.stack && redactText(value.stack),
      };
    }
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] =
        SECRET_KEY_NAME.test(key) &&
        item !== null &&
        item !== undefined &&
        typeof item !== 'boolean'
          ? REDACTED
          : redactValue(item, depth + 1);
    }
    return out;
  }

  return {
    addSecret(value) {
      if (!value || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
      secrets.add(value);
      // Longest first, so a secret that contains another is scrubbed whole.
      const sorted = [...secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
      pattern = new RegExp(sorted.join('|'), 'g');
    },
    redactText,
    redactValue: (value) => redactValue(value),
  };
}
