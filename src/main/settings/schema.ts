// The settings schema lives in src/shared so that the renderer validates with the same rules.
export * from '#shared/settings-schema';
