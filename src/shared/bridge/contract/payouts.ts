import { z } from 'zod';
import type { BalanceView, PayoutCheckView } from '../../views';
import { channel, nairaText, noInput } from './channel';

/** The payout account's balance, and whether a payout of an amount would go through. */
export const payoutChannels = {
  getBalance: channel<BalanceView>()(noInput),
  checkPayout: channel<PayoutCheckView>()(z.object({ amount: nairaText }).strict()),
} as const;
