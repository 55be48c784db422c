import { useState } from 'react';
import { DEFAULT_LAN_HOST, type LanListenerView } from '#shared/hub';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { LanPanel } from '../counters/lan-panel';
import { useHub } from '../counters/use-counters';
import { SaveRow, TextField } from './fields';
import { parseNumber, useSettingsSection } from './settings-form';
import { settingLabel } from '#shared/settings/registry';

interface HubDraft {
  /** Every address of this computer (the default), or the one typed below. */
  readonly allAddresses: boolean;
  readonly host: string;
  readonly port: string;
}

function draftOf(settings: Settings): HubDraft {
  const { lanHost, lanPort } = settings.hub;
  const all = lanHost === DEFAULT_LAN_HOST;
  return { allAddresses: all, host: all ? '' : lanHost, port: String(lanPort) };
}

/**
 * The shop hub: counters on the shop's network (a tablet, a phone, another PC) reach this till
 * through its LAN listener. The listener as it runs now is the Counters screen's own panel; the
 * address and port it listens on are saved here, and a save moves it at once (main refuses a
 * port another program holds, next to the field).
 */
export function ShopHubSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const { hub, error, apply, reload } = useHub();
  const [draft, setDraft] = useState<HubDraft>(() => draftOf(settings));
  const port = parseNumber(draft.port);
  const localErrors: Record<string, string> = {};
  if (port === null) localErrors['hub.lanPort'] = 'Enter a port number from 1024 to 65535';
  const host = draft.allAddresses ? DEFAULT_LAN_HOST : draft.host.trim();

  const section = useSettingsSection({
    settings,
    patch: { hub: { lanHost: host, ...(port === null ? {} : { lanPort: port }) } },
    localErrors,
    fields: ['hub.lanHost', 'hub.lanPort'],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
      void reload();
    },
  });

  function change(next: Partial<HubDraft>, field: string): void {
    setDraft((current) => ({ ...current, ...next }));
    section.edited(field);
  }

  return (
    <section className="panel settings-section shop-hub" aria-labelledby="shop-hub-heading">
      <h3 id="shop-hub-heading">Shop hub</h3>
      <p className="muted">
        Other screens in the shop (a tablet, a phone, another PC) sell through this till over the
        shop&apos;s network. Pair them on the Counters screen.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {hub === null
        ? error === null && <p role="status">Loading the LAN listener…</p>
        : !hub.available && (
            <p className="notice" role="note">
              This copy of Transfer Till cannot host counters: it runs no LAN listener.
            </p>
          )}
      {hub?.available && <LanPanel lan={hub.lan} onHub={apply} />}
      <fieldset className="radio-list lan-address">
        <legend>{settingLabel('hub.lanHost')}</legend>
        <label className="radio">
          <input
            type="radio"
            name="lan-address"
            checked={draft.allAddresses}
            onChange={() => change({ allAddresses: true }, 'hub.lanHost')}
          />
          <span>All addresses of this computer</span>
        </label>
        <label className="radio">
          <input
            type="radio"
            name="lan-address"
            checked={!draft.allAddresses}
            onChange={() =>
              // This computer's first address on the network, to start from (or keep what was typed).
              change(
                { allAddresses: false, host: draft.host || (hub?.lan.addresses[0] ?? '') },
                'hub.lanHost',
              )
            }
          />
          <span>Only one address of this computer</span>
        </label>
      </fieldset>
      {!draft.allAddresses && (
        <TextField
          section={section}
          field="hub.lanHost"
          label={`${settingLabel('hub.lanHost')} (one address of this computer)`}
          hint={addressHint(hub?.lan ?? null)}
          value={draft.host}
          onChange={(value) => change({ host: value }, 'hub.lanHost')}
        />
      )}
      <TextField
        section={section}
        field="hub.lanPort"
        value={draft.port}
        onChange={(value) => change({ port: value }, 'hub.lanPort')}
      />
      <p className="muted">
        Applies when saved: while the LAN listener is on it moves at once, and a port another
        program holds is refused here. Counters paired at the old address need a new pairing link
        each (Counters screen).
      </p>
      {hub?.lan.setForThisRun && (
        <p className="notice" role="note">
          This run was started with its own LAN address or port (--lan-host, --lan-port), so the
          listener stays where it is; what you save here applies from the next start.
        </p>
      )}
      <SaveRow section={section} label="Save shop hub" />
    </section>
  );
}

function addressHint(lan: LanListenerView | null): string {
  const known = lan?.addresses ?? [];
  return known.length === 0
    ? 'An IP address like 192.168.1.20. This computer has no address on a network now.'
    : `An IP address like 192.168.1.20. This computer has ${known.join(', ')} now.`;
}
