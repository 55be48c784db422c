import { useEffect, useState } from 'react';

/**
 * Every screen has a hash route; adding a screen means adding it here and in app.tsx. The
 * customer display ('display') is not in the till's navigation: opened there, it would turn the
 * till into the display with no way back. It has its own address (display_url) and window.
 */
export const ROUTES = [
  'sale',
  'activity',
  'report',
  'balance',
  'settings',
  'counters',
  'display',
  'pair',
] as const;
export type Route = (typeof ROUTES)[number];

export const NAV_ITEMS: readonly { readonly route: Route; readonly label: string }[] = [
  { route: 'sale', label: 'Sale' },
  { route: 'activity', label: 'Activity' },
  { route: 'report', label: 'Report' },
  { route: 'balance', label: 'Balance' },
  { route: 'settings', label: 'Settings' },
  { route: 'counters', label: 'Counters' },
];

/**
 * Screens for the owner only: a cashier's page does not offer them, and main refuses their
 * channels anyway (the page only follows).
 */
export const OWNER_ROUTES: readonly Route[] = ['report', 'balance', 'settings', 'counters'];

export function isOwnerRoute(route: Route): boolean {
  return OWNER_ROUTES.includes(route);
}

/**
 * The screens offered in the navigation: a cashier gets the cashier's ones, and so does a counter
 * paired to a hub whatever its role says (the owner's work is done at the hub).
 */
export function navItemsFor(role: 'owner' | 'cashier', counter = false): typeof NAV_ITEMS {
  return role === 'owner' && !counter
    ? NAV_ITEMS
    : NAV_ITEMS.filter((item) => !isOwnerRoute(item.route));
}

export function routeFromHash(hash: string): Route {
  const name = /^#\/([a-z-]+)/.exec(hash)?.[1];
  return ROUTES.find((route) => route === name) ?? 'sale';
}

export function hrefOf(route: Route): string {
  return `#/${route}`;
}

export function useHashRoute(): Route {
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(routeFromHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** A route's own parameters, kept in the address bar (a pairing link's code and fingerprint). */
const ROUTE_PARAMS: Readonly<Partial<Record<Route, readonly string[]>>> = {
  pair: ['code', 'fp'],
};

/**
 * The route part of a start-up hash such as "#/display&token=…", so that the route survives the
 * bridge taking the token out of the address bar ("#/display" in the example). A route's own
 * parameters stay ("#/pair&code=…&fp=…"); a token never does.
 */
export function routeHashOf(hash: string): string | null {
  const name = /^#\/([a-z-]+)/.exec(hash)?.[1];
  const route = ROUTES.find((candidate) => candidate === name);
  if (!route) return null;
  const kept = (ROUTE_PARAMS[route] ?? []).flatMap((key) => {
    const value = hashParam(hash, key);
    return value === null ? [] : [`${key}=${value}`];
  });
  return [hrefOf(route), ...kept].join('&');
}

/** One `key=value` parameter of a hash such as "#/pair&code=…&fp=…", or null. */
export function hashParam(hash: string, key: string): string | null {
  for (const part of hash.replace(/^#/, '').split('&')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at) === key) return part.slice(at + 1);
  }
  return null;
}

/**
 * Shows a route in place of the current address (no history entry: going back must not
 * return to a used pairing link), and tells useHashRoute, which replaceState does not.
 */
export function replaceRoute(route: Route): void {
  window.history.replaceState(
    null,
    '',
    `${window.location.pathname}${window.location.search}${hrefOf(route)}`,
  );
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}
