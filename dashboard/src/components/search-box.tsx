/**
 * The search box of every page's header (CONTRACT C9.1): from two
 * characters on it lists the people, companies and leads whose name, email,
 * domain or code contains the text, and choosing one opens its page. It is
 * the ARIA combobox pattern: the input owns a listbox, arrow keys move the
 * active option (aria-activedescendant), Enter opens it, Escape closes.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { api, query } from '../api';
import type { SearchHit } from '../types';

const KIND: Record<SearchHit['type'], string> = { person: 'Person', company: 'Company', lead: 'Lead' };
/** how long typing pauses before the search is asked */
const DEBOUNCE_MS = 150;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function SearchBox() {
  const navigate = useNavigate();
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const wanted = useDebounced(text.trim(), DEBOUNCE_MS);
  const enough = [...wanted].length >= 2;
  const results = useQuery({
    queryKey: ['search', wanted],
    queryFn: () => api<{ data: SearchHit[] }>(`/search${query({ q: wanted })}`).then((body) => body.data),
    enabled: enough,
    staleTime: 10_000,
  });
  // only the answer to what the box holds now: Enter never opens a result of an earlier text
  const current = enough && wanted === text.trim();
  const hits = current ? (results.data ?? []) : [];
  const expanded = open && current && results.isFetched;

  const choose = (hit: SearchHit) => {
    setOpen(false);
    setText('');
    if (hit.type === 'person') void navigate({ to: '/identities/$identityId', params: { identityId: hit.id } });
    else if (hit.type === 'company') void navigate({ to: '/companies/$companyId', params: { companyId: hit.id } });
    else void navigate({ to: '/leads/$leadId', params: { leadId: hit.id } });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + hits.length) % hits.length);
    } else if (event.key === 'Enter' && expanded && active >= 0 && hits[active] !== undefined) {
      event.preventDefault();
      choose(hits[active]);
    } else if (event.key === 'Escape') {
      if (expanded) event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  return (
    <div className="search-box" role="search">
      <label htmlFor={`${id}-input`} className="visually-hidden">
        Search
      </label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder="Search people, companies, leads"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={`${id}-listbox`}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={`${id}-listbox`} role="listbox" aria-label="Search results" className="search-results" hidden={!expanded}>
        {hits.map((hit, index) => (
          <li
            key={`${hit.type}:${hit.id}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'active' : undefined}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(hit)}
          >
            <span className="search-kind">{KIND[hit.type]}</span> <span className="search-label">{hit.label}</span>
            {hit.detail === null ? null : <span className="search-detail"> {hit.detail}</span>}
          </li>
        ))}
        {expanded && hits.length === 0 ? (
          <li role="option" aria-selected={false} aria-disabled="true" className="search-empty">
            Nothing matches “{wanted}”
          </li>
        ) : null}
      </ul>
      <span className="visually-hidden" role="status" aria-live="polite">
        {expanded ? `${hits.length} result${hits.length === 1 ? '' : 's'}` : ''}
      </span>
    </div>
  );
}
