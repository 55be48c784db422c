import type { Environment } from '../../../../shared/settings-schema';

/** The names people see for the environments; production is LIVE everywhere. */
export const ENVIRONMENT_NAMES: Readonly<Record<Environment, string>> = {
  sandbox: 'SANDBOX',
  staging: 'STAGING',
  production: 'LIVE',
};
