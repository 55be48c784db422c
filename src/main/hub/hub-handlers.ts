import type { HandlersOf, hubChannels } from '#shared/bridge/contract';
import type { Hub } from './hub-types';

/**
 * The owner's Counters screen: the LAN listener, pairing links, renaming and revoking counters.
 * Each change answers with the hub as it is afterwards, so the screen shows what main holds.
 */
export function hubHandlers(deps: { readonly hub: Hub }): HandlersOf<typeof hubChannels> {
  const { hub } = deps;
  return {
    getHub: () => hub.view(),
    setLanListener: async ({ enabled }) => {
      await hub.setLanEnabled(enabled);
      return hub.view();
    },
    createPairingLink: ({ name }) => hub.createPairingLink(name),
    updateCounter: ({ counterId, name, tillId }) => {
      hub.update(counterId, {
        ...(name === undefined ? {} : { name }),
        ...(tillId === undefined ? {} : { tillId }),
      });
      return hub.view();
    },
    revokeCounter: ({ counterId }) => {
      hub.revoke(counterId);
      return hub.view();
    },
  };
}
