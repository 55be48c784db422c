/**
 * The saved keys' names, each declared once, as the Settings page shows them; main's messages
 * and the page read them from here. No imports: the Settings screen and main both load it, and
 * the registry beside it carries zod.
 */

interface SavedKeyWords {
  /** Its field's label on the Settings page, and how a message about it begins. */
  readonly label: string;
  /** The service a message names it by where the page's heading is not there to say it. */
  readonly of?: string;
  /** The page marks it '(optional)': the till works without it. */
  readonly optional?: boolean;
}

const SAVED_KEYS = {
  secretKey: { label: 'Secret key' },
  accessToken: { label: 'Payout access token' },
  ngrokAuthtoken: { label: 'ngrok authtoken' },
  ngrokBasicAuthPassword: { label: 'Basic-auth password', of: 'ngrok', optional: true },
} as const satisfies Readonly<Record<string, SavedKeyWords>>;

/** A saved key's name, as the secret store keeps it ('secretKey', 'ngrokAuthtoken'). */
export type SavedKeyName = keyof typeof SAVED_KEYS;

export function isSavedKeyName(name: string): name is SavedKeyName {
  return Object.hasOwn(SAVED_KEYS, name);
}

/** Its name as a message begins: 'Secret key', 'Basic-auth password'. */
export function keyLabel(name: SavedKeyName): string {
  return SAVED_KEYS[name].label;
}

/** Its field's label on the Settings page: 'Basic-auth password (optional)'. */
export function keyFieldLabel(name: SavedKeyName): string {
  const words: SavedKeyWords = SAVED_KEYS[name];
  return words.optional ? `${words.label} (optional)` : words.label;
}

/** Its name inside a sentence: 'the payout access token', 'the ngrok basic-auth password'. */
export function keyLabelInText(name: SavedKeyName): string {
  const words: SavedKeyWords = SAVED_KEYS[name];
  const label = words.label.charAt(0).toLowerCase() + words.label.slice(1);
  return words.of ? `${words.of} ${label}` : label;
}
