import { z } from 'zod';
import type { SyncRunView } from '../../views';
import { channel, noInput } from './channel';

/** The provider's listing read into this till (end of day). */
export const syncChannels = {
  syncTransactions: channel<SyncRunView>()(
    z.object({ mode: z.enum(['incremental', 'full']).default('incremental') }).strict(),
  ),
  cancelSync: channel<{ readonly cancelled: boolean }>()(noInput),
} as const;
