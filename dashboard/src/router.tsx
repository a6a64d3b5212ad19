/**
 * The dashboard's pages and their addresses (TanStack Router, routes in
 * code). Filters and paging live in the URL's search, so a view can be
 * reloaded, shared and walked with the browser's back button.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect } from '@tanstack/react-router';
import { AppLayout } from './components/layout';
import { NotFoundPage } from './pages/not-found';
import { CompaniesPage, CompanyPage } from './pages/companies';
import { IdentitiesPage } from './pages/identities';
import { IdentityPage } from './pages/identity';
import { LeadPage } from './pages/lead';
import { LeadsPage } from './pages/leads';
import { ListPage } from './pages/list';
import { ListsPage } from './pages/lists';
import { LivePage } from './pages/live';
import { OverviewPage } from './pages/overview';
import { SetPasswordPage } from './pages/set-password';
import { SettingsPage } from './pages/settings';
import { SignInPage } from './pages/sign-in';
import { LEAD_SORTS, OVERVIEW_RANGES, type CompanySearch, type IdentitySearch, type LeadSearch, type LeadSort, type OverviewRange, type OverviewSearch } from './search-params';
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
  component: SignInPage,
});

const setPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: '/set-password', component: SetPasswordPage });

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
  component: OverviewPage,
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
  component: LeadsPage,
});

const leadRoute = createRoute({ getParentRoute: () => appRoute, path: '/leads/$leadId', component: LeadPage });

const identitiesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/identities',
  validateSearch: (search: Record<string, unknown>): IdentitySearch => ({
    email: text(search.email),
    favorite: search.favorite === 'true' || search.favorite === true ? 'true' : search.favorite === 'false' || search.favorite === false ? 'false' : undefined,
    offset: offset(search.offset),
  }),
  component: IdentitiesPage,
});

const identityRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/identities/$identityId',
  validateSearch: (search: Record<string, unknown>): { activity?: number } => ({ activity: offset(search.activity) }),
  component: IdentityPage,
});

const companiesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/companies',
  validateSearch: (search: Record<string, unknown>): CompanySearch => ({
    name: text(search.name),
    domain: text(search.domain),
    offset: offset(search.offset),
  }),
  component: CompaniesPage,
});

const liveRoute = createRoute({ getParentRoute: () => appRoute, path: '/live', component: LivePage });

const companyRoute = createRoute({ getParentRoute: () => appRoute, path: '/companies/$companyId', component: CompanyPage });

const listsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/lists',
  validateSearch: (search: Record<string, unknown>): { offset?: number } => ({ offset: offset(search.offset) }),
  component: ListsPage,
});

const listRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/lists/$listId',
  validateSearch: (search: Record<string, unknown>): { offset?: number } => ({ offset: offset(search.offset) }),
  component: ListPage,
});

const settingsRoute = createRoute({ getParentRoute: () => appRoute, path: '/settings', component: SettingsPage });

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

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
