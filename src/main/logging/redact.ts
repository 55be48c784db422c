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

/**
 * Secrets the log cannot be told in plain text because only their hash is kept (a paired
 * counter's token after a restart): every stretch of `length` characters of the alphabet in a
 * line (inside longer runs too) is offered to `isSecret`, and scrubbed when it says so.
 */
export interface SecretRecognizer {
  readonly length: number;
  /** One character class, e.g. /[A-Za-z0-9_-]/. */
  readonly alphabet: RegExp;
  isSecret(candidate: string): boolean;
}

export interface Redactor {
  addSecret(value: string | undefined | null): void;
  addRecognizer(recognizer: SecretRecognizer): void;
  redactText(text: string): string;
  redactValue(value: unknown): unknown;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Scrubs every stretch of a run that the recognizer says is a secret. */
function recognize(text: string, recognizer: SecretRecognizer, runs: RegExp): string {
  return text.replace(runs, (run) => {
    const { length } = recognizer;
    let out = '';
    let from = 0;
    for (let at = 0; at + length <= run.length; at++) {
      if (at < from) continue;
      if (recognizer.isSecret(run.slice(at, at + length))) {
        out += run.slice(from, at) + REDACTED;
        from = at + length;
      }
    }
    return out + run.slice(from);
  });
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  let pattern: RegExp | null = null;
  const recognizers: { readonly recognizer: SecretRecognizer; readonly runs: RegExp }[] = [];

  function redactText(text: string): string {
    let out = text;
    if (pattern) out = out.replace(pattern, REDACTED);
    for (const { recognizer, runs } of recognizers) out = recognize(out, recognizer, runs);
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
    addRecognizer(recognizer) {
      const runs = new RegExp(`${recognizer.alphabet.source}{${recognizer.length},}`, 'g');
      recognizers.push({ recognizer, runs });
    },
    redactText,
    redactValue: (value) => redactValue(value),
  };
}
