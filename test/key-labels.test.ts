/**
 * Each saved key's name is declared once, in src/shared/settings/key-labels.ts: the Settings page
 * and main's messages read it there, and no other source file writes one whole.
 */
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_NAMES } from '#main/secrets/secret-store';
import {
  isSavedKeyName,
  keyFieldLabel,
  keyLabel,
  keyLabelInText,
} from '#shared/settings/key-labels';
import { sourceFiles } from '#support/button-names';
import { writtenStrings } from '#support/literal-strings';

const root = resolve(import.meta.dirname, '..');
const labelsFile = join(root, 'src', 'shared', 'settings', 'key-labels.ts');

/** Every form of every key's name, lower-cased: as a field shows it, as a message begins, mid-sentence. */
function labelForms(): ReadonlySet<string> {
  return new Set(
    SECRET_NAMES.flatMap((name) => [keyLabel(name), keyFieldLabel(name), keyLabelInText(name)]).map(
      (form) => form.toLowerCase(),
    ),
  );
}

/** Each key's name written as a whole string (in any case) in a source file other than key-labels.ts. */
function labelCopies(files: readonly string[]): string[] {
  const forms = labelForms();
  return files
    .filter((file) => file !== labelsFile)
    .flatMap((file) =>
      writtenStrings(file)
        .filter((written) => forms.has(written.text.toLowerCase()))
        .map((written) => `${relative(root, file)}:${written.line} "${written.text}"`),
    );
}

describe("the saved keys' labels", () => {
  it('name every key the secret store keeps', () => {
    expect(SECRET_NAMES.filter((name) => !isSavedKeyName(name))).toEqual([]);
    expect(isSavedKeyName('toString')).toBe(false);
  });

  it('say a key mid-sentence lower-cased, naming ngrok where the page has it as a heading', () => {
    expect(SECRET_NAMES.map(keyLabelInText)).toEqual([
      'secret key',
      'payout access token',
      'ngrok authtoken',
      'ngrok basic-auth password',
    ]);
    for (const name of SECRET_NAMES) {
      expect(keyFieldLabel(name).startsWith(keyLabel(name)), name).toBe(true);
    }
  });

  it('are written in one file: no other source file writes one whole', () => {
    const files = sourceFiles(join(root, 'src'));
    expect(files).toContain(labelsFile);
    expect(labelForms().size).toBeGreaterThanOrEqual(SECRET_NAMES.length);
    expect(labelCopies(files)).toEqual([]);
  });
});
