import { useCallback, useId, useState } from 'react';
import type { BridgeError } from '#shared/bridge/contract';
import { koboToDecimalString, nairaToKobo } from '#shared/money';
import { settingsSchema, type Settings, type SettingsPatch } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { useBridge } from '../../bridge-context';
import { failureOf } from '../../hooks/use-bridge-call';
import { useUnsaved } from './unsaved';

/** Messages by dotted settings path ('profiles.staging.baseUrl', 'shop.cashiers.2'). */
export type FieldErrors = Readonly<Record<string, string>>;

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The settings as the server will see them after a patch: objects merged, the rest replaced. */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) out[key] = mergePatch(base[key], value);
  }
  return out;
}

/** The shared schema's messages for the settings after a patch, first message per field. */
export function validationErrors(settings: Settings, patch: SettingsPatch): FieldErrors {
  const result = settingsSchema.safeParse(mergePatch(settings, patch));
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.');
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The server names the field in front of its message ("Default expiry (minutes) (production): At
 * most 1440 minutes"); next to the field itself the name is noise.
 */
export function serverFieldMessage(error: BridgeError): string {
  const at = error.message.indexOf(': ');
  return at >= 0 ? error.message.slice(at + 2) : error.message;
}

/** Text typed into a number field, or null when it is not a number at all. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
}

/** Naira typed by a person ("₦5,000,000.00" included) to kobo, or null. */
export function parseNaira(text: string): number | null {
  const cleaned = text.replace(/[₦,\s]/g, '');
  if (cleaned === '') return null;
  try {
    return nairaToKobo(cleaned);
  } catch {
    return null;
  }
}

/** Kobo as a person types Naira: "5000000", "2500.50". */
export function nairaText(kobo: number): string {
  return koboToDecimalString(kobo).replace(/\.00$/, '');
}

/** The list field a dotted path belongs to ('shop.cashiers.2' → 'shop.cashiers'), or itself. */
function ownerOf(field: string, fields: readonly string[]): string | null {
  if (fields.includes(field)) return field;
  const parent = field.replace(/\.\d+$/, '');
  return parent !== field && fields.includes(parent) ? parent : null;
}

export interface SectionOptions {
  readonly settings: Settings;
  /** This section's part of the settings, as typed so far. */
  readonly patch: SettingsPatch;
  /** Problems found before the schema can look (text where a number belongs). */
  readonly localErrors?: FieldErrors;
  /** The dotted settings paths this section edits, in screen order. */
  readonly fields: readonly string[];
  readonly onSaved: (view: SettingsView) => void;
  /**
   * The rest of the page's one Save, run once the settings are saved (keys sent to main, an
   * environment switch): its problem in words, or null when all of it went through.
   */
  readonly after?: (view: SettingsView) => Promise<string | null>;
}

export interface ListItemError {
  readonly index: number;
  readonly message: string;
}

export interface SettingsSection {
  /** The id of a field's input, for labels and for moving the focus to a problem. */
  readonly idOf: (field: string) => string;
  /** The message to show next to a field now (after it was touched, or after a save). */
  readonly errorOf: (field: string) => string | undefined;
  /** Messages about the items of a list field ('shop.cashiers.1'). */
  readonly itemErrorsOf: (field: string) => readonly ListItemError[];
  /** Any schema message for a field, shown or not yet (to refuse a list item before adding it). */
  readonly problemOf: (field: string) => string | undefined;
  readonly touch: (field: string) => void;
  /** The field changed: its messages apply from now on, and the server's old one is gone. */
  readonly edited: (field: string) => void;
  readonly save: () => Promise<SettingsView | null>;
  readonly saving: boolean;
  readonly notice: string | null;
  readonly problem: string | null;
}

/**
 * One Save button's worth of settings: the shared schema's messages next to each field as it is
 * touched, the server's own field error after a save, and the save itself.
 */
export function useSettingsSection(options: SectionOptions): SettingsSection {
  const { settings, patch, localErrors, fields, onSaved, after } = options;
  const bridge = useBridge();
  const prefix = useId();
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const unsaved = useUnsaved(prefix);

  // The schema runs on every render: a few fields, far cheaper than a keystroke's repaint.
  const clientErrors: FieldErrors = { ...validationErrors(settings, patch), ...localErrors };

  const idOf = useCallback((field: string) => `${prefix}-${field.replace(/\./g, '-')}`, [prefix]);

  function shown(field: string): boolean {
    return submitted || touched.has(ownerOf(field, fields) ?? field);
  }

  function errorOf(field: string): string | undefined {
    return serverErrors[field] ?? (shown(field) ? clientErrors[field] : undefined);
  }

  function itemErrorsOf(field: string): readonly ListItemError[] {
    const items: ListItemError[] = [];
    const all = { ...(shown(field) ? clientErrors : {}), ...serverErrors };
    for (const [path, message] of Object.entries(all)) {
      const match = new RegExp(`^${field.replace(/\./g, '\\.')}\\.(\\d+)$`).exec(path);
      if (match) items.push({ index: Number(match[1]), message });
    }
    return items.sort((a, b) => a.index - b.index);
  }

  function touch(field: string): void {
    setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));
  }

  function edited(field: string): void {
    touch(field);
    unsaved.mark(true);
    setNotice(null);
    setServerErrors((current) => {
      const next: Record<string, string> = {};
      for (const [path, message] of Object.entries(current)) {
        if (ownerOf(path, fields) !== field) next[path] = message;
      }
      return next;
    });
  }

  function focusField(field: string): void {
    const owner = ownerOf(field, fields) ?? field;
    // A field in a folded part of the page (another environment's profile) is unfolded first.
    const folded = document.getElementById(idOf(owner))?.closest('details');
    if (folded) folded.open = true;
    document.getElementById(idOf(field))?.focus();
    if (document.activeElement?.id !== idOf(field)) document.getElementById(idOf(owner))?.focus();
  }

  async function save(): Promise<SettingsView | null> {
    if (saving) return null;
    setSubmitted(true);
    setNotice(null);
    const blocking = Object.keys(clientErrors)
      .filter((field) => ownerOf(field, fields) !== null)
      .sort(
        (a, b) => fields.indexOf(ownerOf(a, fields) ?? a) - fields.indexOf(ownerOf(b, fields) ?? b),
      );
    const first = blocking[0];
    if (first !== undefined) {
      setProblem('Not saved yet: fix the fields marked in red.');
      focusField(first);
      return null;
    }
    setSaving(true);
    setProblem(null);
    const result = await bridge.updateSettings({ patch });
    if (!result.ok) {
      setSaving(false);
      const field = result.error.field;
      if (field !== undefined && ownerOf(field, fields) !== null) {
        setServerErrors({ [field]: serverFieldMessage(result.error) });
        setProblem('Not saved: see the message next to the field.');
        focusField(field);
      } else {
        setProblem(`Not saved: ${failureOf(result.error).words}`);
      }
      return null;
    }
    setServerErrors({});
    setTouched(new Set());
    setSubmitted(false);
    unsaved.mark(false);
    onSaved(result.value);
    const rest = after ? await after(result.value) : null;
    setSaving(false);
    if (rest !== null) {
      setProblem(rest);
      return null;
    }
    setNotice('Saved.');
    return result.value;
  }

  return {
    idOf,
    errorOf,
    itemErrorsOf,
    problemOf: (field) => clientErrors[field],
    touch,
    edited,
    save,
    saving,
    notice,
    problem,
  };
}
