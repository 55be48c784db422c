import { useState } from 'react';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { SaveRow, TextField } from './fields';
import { useSettingsSection } from './settings-form';

const FIELD = 'profiles.sandbox.sandboxUrl';

/**
 * The SANDBOX profile's shared sandbox: the control URL of a standalone `npm run sandbox` that
 * several tills train against. Its own Save button, because changing it switches the provider
 * the till sells on (the embedded sandbox when empty).
 */
export function SandboxUrlField({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [value, setValue] = useState(settings.profiles.sandbox.sandboxUrl);
  const section = useSettingsSection({
    settings,
    patch: { profiles: { sandbox: { sandboxUrl: value } } },
    fields: [FIELD],
    onSaved: (view) => {
      setValue(view.settings.profiles.sandbox.sandboxUrl);
      onSaved(view);
    },
  });
  return (
    <div className="shared-sandbox" role="group" aria-label="Shared training sandbox">
      <h4>Shared training sandbox</h4>
      <TextField
        section={section}
        field={FIELD}
        label="Shared sandbox address"
        hint={
          <>
            To train several tills together, run <code>npm run sandbox</code> on one computer and
            enter the <code>control_url</code> from its first line, e.g.
            http://127.0.0.1:4010/control. Leave empty to use this till&apos;s own sandbox. Use Test
            connection below to check it.
          </>
        }
        type="url"
        inputMode="url"
        value={value}
        onChange={setValue}
      />
      <SaveRow section={section} label="Save shared sandbox" />
    </div>
  );
}
