/**
 * The channel names the window API offers. In the source they are read from the table; the
 * desktop build replaces this module with the list itself (electron.vite.config.ts,
 * `channelNamesAsData`), so that the sandboxed preload does not carry zod and every schema of the
 * table to learn some ninety names. test/desktop-build.test.ts loads the built preload and checks
 * that it offers exactly the table's channels.
 */
export { channelNames } from '#shared/bridge/contract';
