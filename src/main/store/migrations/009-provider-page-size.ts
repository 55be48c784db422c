import type { Migration } from '../migrate';

/**
 * The interface does not promise that `limit` is honoured: a provider may cap its pages. Each
 * sync run keeps the `limit` it asked for and, when a page with more rows still to come held
 * fewer, the page size the provider really gives, so the sync's summary can say so.
 */
export const m009ProviderPageSize: Migration = {
  version: 9,
  name: '009-provider-page-size',
  up(db) {
    db.exec(`
      ALTER TABLE sync_runs ADD COLUMN page_limit INTEGER;
      ALTER TABLE sync_runs ADD COLUMN provider_page_size INTEGER;
    `);
  },
};
