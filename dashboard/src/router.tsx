/**
 * The dashboard's pages and their addresses (TanStack Router, routes in
 * code). Filters and paging live in the URL's search, so a view can be
 * reloaded, shared and walked with the browser's back button.
 *
 * Each page is its own chunk, loaded when its route is first shown (issue 21:
 * half of the single bundle went unused on the overview), so the entry holds
 * only React, the router, the query cache and the layout; main.tsx starts
 * loading the first page's chunk at once (preloadCurrentPage).
 */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { AppLayout } from './components/layout';
import { NotFoundPage } from './pages/not-found';
import {
  COMPANY_SORTS,
  LEAD_SORTS,
  OVERVIEW_RANGES,
  type CompanySearch,
  type CompanySort,
  type IdentitySearch,
  type LeadSearch,
  type LeadSort,
  type OverviewRange,
  type OverviewSearch,
} from './search-params';
import { fetchSession, SESSION_KEY } from './session';

const text = (value: unknown) => (value === undefined || value === null || value === '' ? undefined : String(value));
const offset = (value: unknown) => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
};

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

const sessionOf = (queryClient: QueryClient) => queryClient.ensureQueryData({ queryKey: SESSION_KEY, queryFn: fetchSession });

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (search: Record<string, unknown>): { next?: string } => ({ next: text(search.next) }),
  beforeLoad: async ({ context }) => {
    if ((await sessionOf(context.queryClient)) !== null) throw redirect({ to: '/' });
  },
  component: lazyRouteComponent(() => import('./pages/sign-in'), 'SignInPage'),
});

const setPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: '/set-password', component: lazyRouteComponent(() => import('./pages/set-password'), 'SetPasswordPage') });

/** Every page but signing in needs a session: without one, the sign-in page, remembering where the browser was going. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    if ((await sessionOf(context.queryClient)) === null) {
      throw redirect({ to: '/sign-in', search: { next: location.href === '/' ? undefined : location.href } });
    }
  },
  component: AppLayout,
});

const overviewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  validateSearch: (search: Record<string, unknown>): OverviewSearch => {
    const range = OVERVIEW_RANGES.includes(search.range as OverviewRange) ? (search.range as OverviewRange) : undefined;
    return {
      range: range === '30d' ? undefined : range,
      from: range === 'custom' ? text(search.from) : undefined,
      to: range === 'custom' ? text(search.to) : undefined,
      site: text(search.site),
    };
  },
  component: lazyRouteComponent(() => import('./pages/overview'), 'OverviewPage'),
});

const leadsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/leads',
  validateSearch: (search: Record<string, unknown>): LeadSearch => ({
    source: text(search.source),
    code: text(search.code),
    created_after: text(search.created_after),
    created_before: text(search.created_before),
    offset: offset(search.offset),
    sort: (LEAD_SORTS as readonly unknown[]).includes(search.sort) && search.sort !== '-created_at' ? (search.sort as LeadSort) : undefined,
  }),
  component: lazyRouteComponent(() => import('./pages/leads'), 'LeadsPage'),
});

const leadRoute = createRoute({ getParentRoute: () => appRoute, path: '/leads/$leadId', component: lazyRouteComponent(() => import('./pages/lead'), 'LeadPage') });

const identitiesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/identities',
  validateSearch: (search: Record<string, unknown>): IdentitySearch => ({
    email: text(search.email),
    favorite: search.favorite === 'true' || search.favorite === true ? 'true' : search.favorite === 'false' || search.favorite === false ? 'false' : undefined,
    offset: offset(search.offset),
  }),
  component: lazyRouteComponent(() => import('./pages/identities'), 'IdentitiesPage'),
});

const identityRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/identities/$identityId',
  validateSearch: (search: Record<string, unknown>): { activity?: number } => ({ activity: offset(search.activity) }),
  component: lazyRouteComponent(() => import('./pages/identity'), 'IdentityPage'),
});

const companiesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/companies',
  validateSearch: (search: Record<string, unknown>): CompanySearch => ({
    name: text(search.name),
    domain: text(search.domain),
    offset: offset(search.offset),
    sort: (COMPANY_SORTS as readonly unknown[]).includes(search.sort) && search.sort !== '-created_at' ? (search.sort as CompanySort) : undefined,
  }),
  component: lazyRouteComponent(() => import('./pages/companies'), 'CompaniesPage'),
});

const liveRoute = createRoute({ getParentRoute: () => appRoute, path: '/live', component: lazyRouteComponent(() => import('./pages/live'), 'LivePage') });

const companyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/companies/$companyId',
  validateSearch: (search: Record<string, unknown>): { activity?: number } => ({ activity: offset(search.activity) }),
  component: lazyRouteComponent(() => import('./pages/company'), 'CompanyPage'),
});

const listsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/lists',
  validateSearch: (search: Record<string, unknown>): { offset?: number } => ({ offset: offset(search.offset) }),
  component: lazyRouteComponent(() => import('./pages/lists'), 'ListsPage'),
});

const listRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/lists/$listId',
  validateSearch: (search: Record<string, unknown>): { offset?: number } => ({ offset: offset(search.offset) }),
  component: lazyRouteComponent(() => import('./pages/list'), 'ListPage'),
});

const settingsRoute = createRoute({ getParentRoute: () => appRoute, path: '/settings', component: lazyRouteComponent(() => import('./pages/settings'), 'SettingsPage') });

const routeTree = rootRoute.addChildren([
  signInRoute,
  setPasswordRoute,
  appRoute.addChildren([
    overviewRoute,
    liveRoute,
    leadsRoute,
    leadRoute,
    identitiesRoute,
    identityRoute,
    companiesRoute,
    companyRoute,
    listsRoute,
    listRoute,
    settingsRoute,
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, context: { queryClient }, defaultPreload: false, scrollRestoration: true });
}

/**
 * Starts loading the chunks of the page the browser opened, before the
 * session is known (the router itself would wait for it): the first page's
 * code then arrives alongside the session instead of after it.
 */
export function preloadCurrentPage(router: ReturnType<typeof createAppRouter>): void {
  for (const match of router.matchRoutes(router.state.location)) {
    const route = (router.routesById as Record<string, { options: { component?: unknown } } | undefined>)[match.routeId];
    const component = route?.options.component as { preload?: () => Promise<void> } | undefined;
    void component?.preload?.();
  }
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
