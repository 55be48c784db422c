import { useShellAccess } from './use-shell-access';

/**
 * The browser shell's access token (the `#token=…` of its address): the owner makes a new one
 * when an old address may have leaked. Pages opened with the old one are refused; this page goes
 * on with the new one, and shows the new addresses once. The desktop app has no token.
 */
export function ShellAccessSection() {
  const { browserShell, rotating, rotated, error, rotate } = useShellAccess();

  if (!browserShell) return null;

  return (
    <section className="panel settings-section shell-access" aria-labelledby="shell-access-heading">
      <h3 id="shell-access-heading">Browser access</h3>
      <p className="muted">
        This page was opened with an address that holds an access token. It is kept in the data
        directory, so the same address works after the till service restarts.
      </p>
      <div className="save-row">
        <button
          type="button"
          className="button secondary"
          disabled={rotating}
          onClick={() => void rotate()}
        >
          Rotate access token
        </button>
        <span className="muted">
          Makes a new token at once: every other page, the customer display included, is refused
          until it is opened with the new address.
        </span>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {rotated && (
        <div role="status" className="rotated-access">
          <p className="saved-notice">
            New access token made. This page goes on with it. Open the other pages with the new
            address (shown here once; the till service also printed it):
          </p>
          <p>
            Till:{' '}
            <code className="mono" data-testid="shell-url">
              {rotated.url}
            </code>
          </p>
          <p>
            Customer display:{' '}
            <code className="mono" data-testid="shell-display-url">
              {rotated.displayUrl}
            </code>
          </p>
        </div>
      )}
    </section>
  );
}
