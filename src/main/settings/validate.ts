import type { z } from 'zod';
import { SettingsValidationError, type SettingsIssue } from './errors';
import { settingsSchema, type Settings } from '#shared/settings-schema';

type RawIssue = z.core.$ZodRawIssue;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'on or off (true or false)',
  array: 'a list',
  object: 'a group of settings',
};

function bound(value: number | bigint): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/**
 * Plain-English words for zod's built-in issues. Messages written in the schema take precedence
 * (zod applies a schema's own message before this per-parse map), so this only fills gaps.
 */
function friendlyMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `Required: ${TYPE_WORDS[issue.expected] ?? issue.expected}`
        : `Must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? 'Must not be empty'
          : `At least ${bound(issue.minimum)} characters`;
      }
      if (issue.origin === 'array') return `At least ${bound(issue.minimum)} items`;
      return `Must be at least ${bound(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `At most ${bound(issue.maximum)} characters`;
      if (issue.origin === 'array') return `At most ${bound(issue.maximum)} items`;
      return `Must be at most ${bound(issue.maximum)}`;
    case 'invalid_value':
      return `Must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return 'Not in the expected format';
    default:
      return undefined;
  }
}

function toIssue(issue: z.core.$ZodIssue): SettingsIssue {
  return { field: issue.path.map(String).join('.'), message: issue.message };
}

/** Parses settings as a whole; throws SettingsValidationError naming the first bad field. */
export function validateSettings(candidate: unknown): Settings {
  const result = settingsSchema.safeParse(candidate, { error: friendlyMessage });
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues.map(toIssue);
  if (!first) throw new SettingsValidationError([{ field: '', message: 'Invalid settings' }]);
  throw new SettingsValidationError([first, ...rest]);
}
