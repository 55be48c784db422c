import { z } from 'zod';
import type { HubView, PairingLinkView } from '../../hub';
import { channel, noInput } from './channel';

/** The shop hub: counters on the shop's network (the owner's, at the hub). */
export const hubChannels = {
  getHub: channel<HubView>()(noInput),
  /** Turns the LAN listener on or off (kept in Settings); counters are refused while it is off. */
  setLanListener: channel<HubView>()(z.object({ enabled: z.boolean() }).strict()),
  /** A one-time pairing link for a new counter of this name, valid PAIRING_TTL_MS. */
  createPairingLink: channel<PairingLinkView>()(
    z.object({ name: z.string().trim().min(1, 'Name the counter').max(40) }).strict(),
  ),
  /** Renames a counter or changes its till id (checked like this till's, unique in the shop). */
  updateCounter: channel<HubView>()(
    z
      .object({
        counterId: z.number().int().positive(),
        name: z.string().trim().min(1, 'Name the counter').max(40).optional(),
        tillId: z.string().trim().min(1).max(16).optional(),
      })
      .strict(),
  ),
  /** The counter's token is refused from now on, and its open event stream ends. */
  revokeCounter: channel<HubView>()(z.object({ counterId: z.number().int().positive() }).strict()),
} as const;
