/** What a counting fetch saw: the provider requests the till sent, by endpoint, in order. */
export interface ProviderRequestLog {
  readonly fetch: typeof fetch;
  /** Status requests (GET /virtual/status), each with the fake time it was sent at. */
  readonly status: { readonly reference: string; readonly at: number }[];
  /** Listing requests (GET /virtual/transactions) with their offset and limit. */
  readonly listing: { readonly offset: number; readonly limit: number; readonly at: number }[];
}

/**
 * A fetch for the provider client that counts what it sends before passing it on to the real
 * network (the sandbox over HTTP): the request budget is measured at the wire, not guessed.
 */
export function countProviderRequests(now: () => number): ProviderRequestLog {
  const log: ProviderRequestLog = {
    status: [],
    listing: [],
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith('/virtual/status')) {
        log.status.push({ reference: url.searchParams.get('reference') ?? '', at: now() });
      } else if (url.pathname.endsWith('/virtual/transactions')) {
        log.listing.push({
          offset: Number(url.searchParams.get('offset')),
          limit: Number(url.searchParams.get('limit')),
          at: now(),
        });
      }
      return fetch(input, init);
    },
  };
  return log;
}
