import { TextField } from './fields';
import { SANDBOX_URL, type EnvironmentPageForm } from './use-environment-page';

/**
 * The SANDBOX profile's shared sandbox: the control URL of a standalone `npm run sandbox` that
 * several tills train against (the embedded sandbox when empty). Saved with the page; changing it
 * switches the provider the till sells on.
 */
export function SandboxUrlField({ form }: { readonly form: EnvironmentPageForm }) {
  return (
    <div className="shared-sandbox" role="group" aria-label="Shared training sandbox">
      <h4>Shared training sandbox</h4>
      <TextField
        section={form.section}
        field={SANDBOX_URL}
        hint={
          <>
            To train several tills together, run <code>npm run sandbox</code> on one computer and
            enter the <code>control_url</code> from its first line, e.g.
            http://127.0.0.1:4010/control. Leave empty to use this till&apos;s own sandbox. Use Test
            connection below to check it.
          </>
        }
        value={form.sandboxUrl}
        onChange={form.setSandboxUrl}
      />
    </div>
  );
}
