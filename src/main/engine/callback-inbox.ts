import type { Db } from '#main/store/database';
import { createGroupCommitInbox } from '#main/store/callback-inbox';
import type { StoreSpace } from '#main/store/store-space';
import type { CallbackInbox } from '#main/webhook';

/**
 * Where the webhook listener stores each callback before its 200: the database of the
 * environment in use (none while it switches: the provider is answered 503 and retries), and
 * a failed commit told to that store's space monitor.
 */
export function environmentInbox(
  current: () => { readonly db: Db; readonly storeSpace: StoreSpace } | null,
): CallbackInbox {
  return createGroupCommitInbox(
    () => {
      const store = current();
      if (!store) throw new Error('The till is switching environments');
      return store.db;
    },
    (error) => current()?.storeSpace.noteFailure(error),
  );
}
