import { formatNaira } from '#shared/money';
import { nounFor } from '#shared/plural';
import type { AmountTotal, ShopTotalsView } from '#shared/views';

/** One line of the table; `id` names its test ids (report-<id>-count, report-<id>-amount). */
function Line({
  label,
  total,
  id,
  detail,
}: {
  readonly label: string;
  readonly total: AmountTotal;
  readonly id?: string;
  readonly detail?: string;
}) {
  return (
    <tr>
      <th scope="row">
        {label}
        {detail && <span className="muted"> · {detail}</span>}
      </th>
      <td className="num" data-testid={id && `report-${id}-count`}>
        {total.count}
      </td>
      <td className="num" data-testid={id && `report-${id}-amount`}>
        {formatNaira(total.amountKobo)}
      </td>
    </tr>
  );
}

/**
 * The shop view: the provider's listing holds every till's payments (one merchant account), so
 * the report says whose each one is. Other tills' money is theirs, counted in the shop total,
 * never an exception here.
 */
export function ShopTotals({
  shop,
  otherIncome = false,
}: {
  readonly shop: ShopTotalsView;
  /** Money no till made is other income (Settings), listed apart rather than as cases. */
  readonly otherIncome?: boolean;
}) {
  const others = shop.otherTills.reduce<AmountTotal>(
    (sum, till) => ({
      count: sum.count + till.count,
      amountKobo: sum.amountKobo + till.amountKobo,
    }),
    { count: 0, amountKobo: 0 },
  );
  return (
    <section className="panel shop-totals" aria-labelledby="shop-totals-heading">
      <h3 id="shop-totals-heading">Successful transfers by till of this shop</h3>
      <table className="data-table" data-testid="report-shop">
        <thead>
          <tr>
            <th scope="col">Made by</th>
            <th scope="col">Transfers</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          <Line label="This till" detail={shop.tillId} total={shop.thisTill} id="this-till" />
          <Line label="Other tills of this shop" total={others} id="other-tills" />
          {shop.otherTills.map((till) => (
            <Line
              key={till.tillPrefix}
              // A counter paired to this hub is known by the name the owner gave it.
              label={till.counterName ?? `Till ${till.tillPrefix}`}
              detail={till.counterName ? 'counter paired here' : 'another till of this shop'}
              total={till}
            />
          ))}
          <Line label="Standing accounts" total={shop.standingAccounts} id="counter" />
        </tbody>
        <tfoot>
          <Line label="Shop total" total={shop.shopTotal} id="shop-total" />
        </tfoot>
      </table>
      {shop.otherTills.length === 0 && (
        <p className="muted">
          No other till of this shop was paid in this period, as far as the last sync shows.
        </p>
      )}
      <p className={shop.notOurs.count > 0 ? 'notice' : 'muted'}>
        Not made by any till of this shop:{' '}
        <span data-testid="report-not-ours-count">{shop.notOurs.count}</span>{' '}
        {nounFor(shop.notOurs.count, 'transfer')},{' '}
        <span data-testid="report-not-ours-amount">{formatNaira(shop.notOurs.amountKobo)}</span>
        {shop.notOurs.count === 0
          ? '.'
          : otherIncome
            ? ' (other income on this account: listed below, not a case for a person).'
            : ' (each is listed under "Needs a person").'}
      </p>
    </section>
  );
}
