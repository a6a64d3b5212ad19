/**
 * The attribution the shipped data's licence asks for (CC BY 4.0, NOTICE):
 * DB-IP wants "IP Geolocation by DB-IP" linked to db-ip.com on every page
 * that shows what its data found, and the network data (RouteViews, NRO and
 * DB-IP) wants its sources named. Shown under the pages that show locations
 * (leads, identities) or what networks said (a lead's company match, an
 * identity's network, companies).
 */
import { useRouterState } from '@tanstack/react-router';

/** the pages that show a city, a country or a network */
const PAGES = /^\/(?:leads|identities|companies)(?:\/|$)/;

export function DataAttribution() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  if (!PAGES.test(pathname)) return null;
  return (
    <footer className="attribution">
      <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
      {' · networks: '}
      <a href="https://www.routeviews.org/">RouteViews</a>, <a href="https://www.nro.net/">NRO</a> and DB-IP
      {' · '}
      <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>
    </footer>
  );
}
