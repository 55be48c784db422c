/**
 * Replaces each secret (authtoken, basic-auth password) wherever it appears in a text that may
 * reach a log or the screen. Defence in depth: the app logger also redacts registered secrets.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}
