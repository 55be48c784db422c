import { formatNaira } from '#shared/money';

/**
 * The exact amount an outage sale asks for, its kobo set apart and larger: the kobo tell this
 * sale's transfer from another's, so the customer must not round them away.
 */
export function ExactAmount({
  kobo,
  className,
}: {
  readonly kobo: number;
  readonly className: string;
}) {
  const text = formatNaira(kobo);
  const dot = text.lastIndexOf('.');
  return (
    <span className={`exact-amount ${className}`} data-testid="amount-due">
      {text.slice(0, dot)}
      <span className="exact-kobo">{text.slice(dot)}</span>
    </span>
  );
}
