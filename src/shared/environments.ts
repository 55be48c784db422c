/**
 * The provider environments and their names for people: plain data, no zod, so that a page can
 * name them without loading the settings schema (settings-schema.ts re-exports them).
 */
export const ENVIRONMENTS = ['sandbox', 'staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The names people see for the environments, on screen and in main's messages: production is LIVE. */
export const ENVIRONMENT_NAMES: Readonly<Record<Environment, string>> = {
  sandbox: 'SANDBOX',
  staging: 'STAGING',
  production: 'LIVE',
};

/** The provider's own services: their keys come from its support team and move real data. */
export const KEYED_ENVIRONMENTS = [
  'staging',
  'production',
] as const satisfies readonly Environment[];
export type KeyedEnvironment = (typeof KEYED_ENVIRONMENTS)[number];
