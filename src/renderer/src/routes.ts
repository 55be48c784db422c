import { useEffect, useState } from 'react';

/** Every screen has a hash route; adding a screen means adding it here and in app.tsx. */
export const ROUTES = ['sale', 'activity', 'report', 'balance', 'settings', 'display'] as const;
export type Route = (typeof ROUTES)[number];

export const NAV_ITEMS: readonly { readonly route: Route; readonly label: string }[] = [
  { route: 'sale', label: 'Sale' },
  { route: 'activity', label: 'Activity' },
  { route: 'report', label: 'Report' },
  { route: 'balance', label: 'Balance' },
  { route: 'settings', label: 'Settings' },
  { route: 'display', label: 'Customer display' },
];

/**
 * Screens for the owner only: a cashier's page does not offer them, and main refuses their
 * channels anyway (the page only follows).
 */
export const OWNER_ROUTES: readonly Route[] = ['report', 'balance', 'settings'];

export function isOwnerRoute(route: Route): boolean {
  return OWNER_ROUTES.includes(route);
}

/** The screens a role is offered in the navigation. */
export function navItemsFor(role: 'owner' | 'cashier'): typeof NAV_ITEMS {
  return role === 'owner' ? NAV_ITEMS : NAV_ITEMS.filter((item) => !isOwnerRoute(item.route));
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

/**
 * The route part of a start-up hash such as "#/display&token=…", so that the route survives the
 * bridge taking the token out of the address bar ("#/display" in the example).
 */
export function routeHashOf(hash: string): string | null {
  const name = /^#\/([a-z-]+)/.exec(hash)?.[1];
  const route = ROUTES.find((candidate) => candidate === name);
  return route ? hrefOf(route) : null;
}
