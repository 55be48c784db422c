import type { HubView, LanListenerView } from '#shared/hub';
import { Fingerprint } from '../../components/fingerprint';
import { useLanSwitch } from './use-counters';
import { SETTING_LABELS } from '#shared/schema-data';

function lanState(lan: LanListenerView): string {
  if (lan.running) return 'On';
  if (lan.enabled) return 'Not running';
  return 'Off';
}

/**
 * The LAN listener counters reach the hub through (HTTPS, off by default): the switch, where it
 * listens, and the certificate fingerprint a counter's browser shows, to compare.
 */
export function LanPanel({
  lan,
  onHub,
}: {
  readonly lan: LanListenerView;
  readonly onHub: (view: HubView) => void;
}) {
  const { busy, error, toggle } = useLanSwitch(onHub);

  return (
    <section className="panel lan-panel" aria-labelledby="lan-heading">
      <h3 id="lan-heading">LAN listener</h3>
      {/* The label holds the switch: on a touchscreen the whole line is its target. */}
      <label className="checkbox lan-switch">
        <input
          type="checkbox"
          role="switch"
          checked={lan.enabled}
          disabled={busy}
          onChange={(event) => void toggle(event.target.checked)}
        />
        <span>{SETTING_LABELS['hub.lanEnabled']}</span>
      </label>
      <dl className="lan-details">
        <dt>State</dt>
        <dd data-testid="lan-state">{busy ? 'Changing…' : lanState(lan)}</dd>
        <dt>Address</dt>
        <dd className="mono" data-testid="lan-url">
          {lan.url ?? '—'}
        </dd>
        <dt>Port</dt>
        <dd className="mono">{lan.port}</dd>
        <dt>Certificate fingerprint (SHA-256)</dt>
        <dd>
          {lan.fingerprint ? <Fingerprint value={lan.fingerprint} testId="lan-fingerprint" /> : '—'}
        </dd>
      </dl>
      {lan.fingerprint && (
        <p className="muted">
          A counter&apos;s browser warns once that it does not know this certificate (the hub made
          it itself). Accept it only if the fingerprint the browser shows matches the one above.
        </p>
      )}
      {lan.problem && (
        <p role="alert" className="error" data-testid="lan-problem">
          {lan.problem}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
