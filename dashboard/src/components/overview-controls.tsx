/**
 * The overview's controls (C9.5): the period (`Today`, `Last 7 days`,
 * `Last 30 days`, `Last 90 days`, or a custom `From`–`To` applied with
 * `Apply`), and the site filter (`Site`). Everything lives in the URL, so a
 * view can be reloaded and shared.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { PRESETS, rangeProblem } from '../overview-range';
import type { OverviewRange, OverviewSearch } from '../search-params';

export function OverviewControls({
  search,
  period,
  sites,
}: {
  search: OverviewSearch;
  period: { range: OverviewRange; from: string; to: string };
  sites: string[];
}) {
  const navigate = useNavigate();
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [problem, setProblem] = useState<string | undefined>();
  const go = (next: OverviewSearch) => void navigate({ to: '/', search: next });
  const preset = (range: OverviewRange) => {
    setProblem(undefined);
    go({ site: search.site, range: range === '30d' ? undefined : range });
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const why = rangeProblem(from, to);
    setProblem(why);
    if (why === undefined) go({ site: search.site, range: 'custom', from, to });
  };
  const siteChoices = search.site !== undefined && !sites.includes(search.site) ? [search.site, ...sites] : sites;
  return (
    <div className="overview-controls">
      <fieldset className="segmented">
        <legend className="visually-hidden">Period</legend>
        {PRESETS.map((entry) => (
          <label key={entry.range}>
            <input type="radio" name="period" value={entry.range} checked={period.range === entry.range} onChange={() => preset(entry.range)} />
            {entry.label}
          </label>
        ))}
      </fieldset>
      <form className="custom-range" onSubmit={apply} aria-label="Custom range" noValidate>
        <label>
          From
          <input type="date" value={from} max={to} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} />
        </label>
        <button type="submit" className={period.range === 'custom' ? 'primary' : undefined}>
          Apply
        </button>
        {problem !== undefined && (
          <p className="error-text" role="alert">
            {problem}
          </p>
        )}
      </form>
      <div className="site-filter">
        <label htmlFor="overview-site">Site</label>
        <select id="overview-site" value={search.site ?? ''} onChange={(event) => go({ ...search, site: event.target.value === '' ? undefined : event.target.value })}>
          <option value="">All sites</option>
          {siteChoices.map((site) => (
            <option key={site} value={site}>
              {site}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
