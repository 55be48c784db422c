import { useStoreSpace } from './use-header-calls';

/**
 * Says that the till's disk is full while it is: new sales are refused, open sales are still
 * checked, and payments found meanwhile show once they are stored. Read when the page opens,
 * then followed through main's 'store-space' events.
 */
export function DiskFullBanner() {
  const space = useStoreSpace();
  if (!space?.full) return null;
  return (
    <div className="notice disk-full-banner" role="alert" data-testid="disk-full-banner">
      <strong>The till&apos;s disk is full: free some space.</strong> New sales cannot start. Open
      sales are still being checked; a payment shows as paid once it is saved.
    </div>
  );
}
