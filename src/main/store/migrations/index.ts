import type { Migration } from '../migrate';
import { m001Initial } from './001-initial';
import { m002SyncAndReports } from './002-sync-and-reports';
import { m003StatusHistoryAndUnreadable } from './003-status-history-and-unreadable';
import { m004ShopAttribution } from './004-shop-attribution';
import { m005ExceptionResolutions } from './005-exception-resolutions';
import { m006WatchedSales } from './006-watched-sales';
import { m007PairedCounters } from './007-paired-counters';
import { m008ActivityIndexes } from './008-activity-indexes';
import { m009ProviderPageSize } from './009-provider-page-size';
import { m010RetentionCursors } from './010-retention-cursors';
import { m011CallbackUrlRecords } from './011-callback-url-records';
import { m012AlertClosures } from './012-alert-closures';
import { m013OutageSales } from './013-outage-sales';

/** Every migration, in order. Append new ones; never edit or reorder a shipped one. */
export const migrations: readonly Migration[] = [
  m001Initial,
  m002SyncAndReports,
  m003StatusHistoryAndUnreadable,
  m004ShopAttribution,
  m005ExceptionResolutions,
  m006WatchedSales,
  m007PairedCounters,
  m008ActivityIndexes,
  m009ProviderPageSize,
  m010RetentionCursors,
  m011CallbackUrlRecords,
  m012AlertClosures,
  m013OutageSales,
];
