/** Pairs shown on one line: four lines of eight for a SHA-256, easy to compare line by line. */
const PAIRS_PER_LINE = 8;

/**
 * A SHA-256 fingerprint as upper-case hex pairs, from main's "AB:CD:…" or a link's 64 plain hex
 * digits; null when the text is not one.
 */
export function fingerprintPairs(text: string): readonly string[] | null {
  const hex = text.replace(/[:\s]/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return null;
  return hex.match(/../g) ?? null;
}

/**
 * The hub certificate's fingerprint, in pairs, so that the person at a counter can compare it
 * with what their browser shows for the hub's certificate (SHA-256).
 */
export function Fingerprint({
  value,
  testId,
}: {
  readonly value: string;
  readonly testId?: string;
}) {
  const pairs = fingerprintPairs(value);
  if (!pairs) return <code className="mono fingerprint">{value}</code>;
  const lines: string[] = [];
  for (let at = 0; at < pairs.length; at += PAIRS_PER_LINE) {
    lines.push(pairs.slice(at, at + PAIRS_PER_LINE).join(' '));
  }
  return (
    <code className="mono fingerprint" data-testid={testId}>
      {lines.map((line, index) => (
        <span key={index} className="fingerprint-line">
          {index > 0 ? ' ' : ''}
          {line}
        </span>
      ))}
    </code>
  );
}
