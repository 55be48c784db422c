import { useCallback, useState } from 'react';
import type { WindowApi } from '#shared/bridge/contract';
import type { PairingResult } from '#shared/hub';
import { App } from './app';
import type { PageStart } from './bridge';
import { replaceRoute, useHashRoute } from './routes';
import { PairingPage } from './screens/pair/pairing-page';

interface Page extends PageStart {
  /** Bumped when the page takes a new bridge: the app mounts afresh on it. */
  readonly generation: number;
}

/**
 * The page before the app: a pairing link (`#/pair&code=…`) is served first, whatever token the
 * page held; once paired, the app runs on the counter's own bridge.
 */
export function Root({
  start,
  connectCounter,
  fetchImpl = fetch,
}: {
  readonly start: PageStart;
  /** Keeps a counter's new token on this device and builds its bridge. */
  readonly connectCounter: (token: string) => WindowApi;
  readonly fetchImpl?: typeof fetch;
}) {
  const route = useHashRoute();
  const [page, setPage] = useState<Page>(() => ({ ...start, generation: 0 }));

  const onPaired = useCallback(
    (result: PairingResult) => {
      const bridge = connectCounter(result.token);
      setPage((current) => ({ bridge, displayOnly: false, generation: current.generation + 1 }));
      // The code is used up: out of the address bar (and history), on to selling.
      replaceRoute('sale');
    },
    [connectCounter],
  );

  if (route === 'pair') return <PairingPage fetchImpl={fetchImpl} onPaired={onPaired} />;
  return <App key={page.generation} bridge={page.bridge} displayOnly={page.displayOnly} />;
}
