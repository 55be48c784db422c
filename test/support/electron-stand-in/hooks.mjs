// @ts-check
/** Module resolution hooks (node:module register): 'electron' is the stand-in beside this file. */
const STAND_IN = new URL('./electron.mjs', import.meta.url).href;

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true };
  return nextResolve(specifier, context);
}
