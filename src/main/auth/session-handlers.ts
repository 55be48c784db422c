import type { Caller, HandlersOf, SessionView, sessionChannels } from '#shared/bridge/contract';
import type { Roles } from './roles';
import type { SettingsStore } from '#main/settings/settings-store';

/** Sign-in, owner unlock and PINs: each answers with the caller's session as it is afterwards. */
export function sessionHandlers(deps: {
  readonly roles: Roles;
  readonly settings: SettingsStore;
}): HandlersOf<typeof sessionChannels> {
  const { roles, settings } = deps;

  function view(caller: Caller): SessionView {
    return { ...roles.view(caller), sounds: settings.get().sounds };
  }

  return {
    getSession: (_input, caller) => view(caller),
    signIn: async ({ name, pin }, caller) => {
      await roles.signIn(caller, name, pin);
      return view(caller);
    },
    signOut: (_input, caller) => {
      roles.signOut(caller);
      return view(caller);
    },
    unlockOwner: async ({ pin }, caller) => {
      await roles.unlockOwner(caller, pin);
      return view(caller);
    },
    lock: (_input, caller) => {
      roles.lock(caller);
      return view(caller);
    },
    setOwnerPin: async ({ pin, currentPin }, caller) => {
      await roles.setOwnerPin(caller, pin, currentPin);
      return view(caller);
    },
    removeOwnerPin: async ({ currentPin }, caller) => {
      await roles.removeOwnerPin(caller, currentPin);
      return view(caller);
    },
    setCashierPin: async ({ name, pin }, caller) => {
      await roles.setCashierPin(name, pin);
      return view(caller);
    },
  };
}
