/**
 * What a salesperson works with on a lead's page (C9.3): the `Status` and
 * `Owner` selects (written into summary.status and summary.owner, the
 * owner as a member's user id), the properties as a readable table, and
 * the notes with `Add note`. Viewers see them; members change them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, type Page } from '../api';
import { QueryView } from '../components/states';
import { Time } from '../components/time';
import type { JsonObject, Lead, LeadNote, Member } from '../types';
import { ENGAGED_FROM, QUALIFIED_FROM } from '../score-thresholds';

export const STATUSES = ['new', 'engaged', 'qualified', 'disqualified', 'customer'] as const;
const NOTE_MAX = 10_000;

/** The status and owner selects; a change replaces summary with the same object but that key. */
export function LeadWork({ lead, editable, onSummary }: { lead: Lead; editable: boolean; onSummary: (summary: JsonObject) => Promise<unknown> }) {
  const members = useQuery({ queryKey: ['members', 'all'], queryFn: () => api<Page<Member>>('/members?limit=100') });
  const [problem, setProblem] = useState<string | undefined>();
  const statusId = useId();
  const ownerId = useId();
  const status = typeof lead.summary?.status === 'string' ? lead.summary.status : '';
  const owner = typeof lead.summary?.owner === 'string' ? lead.summary.owner : '';
  const write = (key: 'status' | 'owner', value: string) => {
    const summary: JsonObject = { ...(lead.summary ?? {}) };
    if (value === '') delete summary[key];
    else summary[key] = value;
    setProblem(undefined);
    onSummary(summary).catch((error: unknown) => setProblem(error instanceof ApiError ? error.message : 'The change was not saved.'));
  };
  const people = members.data?.data ?? [];
  return (
    <section className="card" aria-label="Work this lead">
      <h2>Work this lead</h2>
      <div className="work-fields">
        <div>
          <label htmlFor={statusId}>Status</label>
          <select id={statusId} value={status} disabled={!editable} onChange={(event) => write('status', event.target.value)}>
            {!(STATUSES as readonly string[]).includes(status) && <option value={status}>{status === '' ? 'No status' : status}</option>}
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ownerId}>Owner</label>
          <select id={ownerId} value={owner} disabled={!editable} onChange={(event) => write('owner', event.target.value)}>
            <option value="">Nobody</option>
            {owner !== '' && !people.some((person) => person.id === owner) && <option value={owner}>A former member</option>}
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name ?? person.email}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="muted">
        Status: until someone sets it, the lead score sets it: <strong>new</strong> below {ENGAGED_FROM}, <strong>engaged</strong> from {ENGAGED_FROM},{' '}
        <strong>qualified</strong> from {QUALIFIED_FROM}. <strong>disqualified</strong> and <strong>customer</strong> are set by people only, and a status a
        person sets stays. {editable ? '' : 'Viewers cannot change them.'}
      </p>
      {problem !== undefined && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
    </section>
  );
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The properties, one row per key. */
export function PropertiesTable({ properties }: { properties: JsonObject }) {
  const entries = Object.entries(properties);
  return (
    <section className="card" aria-label="Properties">
      <h2>Properties</h2>
      {entries.length === 0 ? (
        <p className="muted">No properties.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Properties of the lead</caption>
            <thead>
              <tr>
                <th scope="col">Property</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {entries.map(([key, value]) => (
                <tr key={key}>
                  <th scope="row">{key}</th>
                  <td className="cell-wrap">{shown(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The notes, newest first, and for members `Add note`. */
export function Notes({ leadId, editable }: { leadId: string; editable: boolean }) {
  const client = useQueryClient();
  const notes = useQuery({ queryKey: ['notes', leadId], queryFn: () => api<Page<LeadNote>>(`/leads/${leadId}/notes?limit=100`) });
  const [body, setBody] = useState('');
  const fieldId = useId();
  const add = useMutation({
    mutationFn: (text: string) => api<{ data: LeadNote }>(`/leads/${leadId}/notes`, { method: 'POST', body: { body: text } }),
    onSuccess: () => {
      setBody('');
      void client.invalidateQueries({ queryKey: ['notes', leadId] });
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (body.trim() !== '') add.mutate(body);
  }
  return (
    <section className="card" aria-label="Notes">
      <h2>Notes</h2>
      {editable && (
        <form onSubmit={submit} className="stacked-form">
          <label htmlFor={fieldId}>Note</label>
          <textarea id={fieldId} value={body} maxLength={NOTE_MAX} rows={3} onChange={(event) => setBody(event.target.value)} />
          <div>
            <button type="submit" className="primary" disabled={add.isPending || body.trim() === ''}>
              Add note
            </button>
          </div>
          {add.error !== null && (
            <p role="alert" className="problem">
              {add.error instanceof ApiError ? add.error.message : 'The note was not saved.'}
            </p>
          )}
        </form>
      )}
      <QueryView query={notes}>
        {(page) =>
          page.data.length === 0 ? (
            <p className="muted">No notes yet.</p>
          ) : (
            <>
              <ul className="notes" aria-label="Notes on this lead">
                {page.data.map((note) => (
                  <li key={note.id}>
                    <div className="note-meta">
                      {note.author.type === 'api_key' ? `${note.author.name} (API key)` : note.author.name} · <Time value={note.created_at} />
                    </div>
                    {note.body}
                  </li>
                ))}
              </ul>
              {page.pagination.total > page.data.length && (
                <p className="muted">
                  The newest {page.data.length} of {page.pagination.total} notes; the rest through the API.
                </p>
              )}
            </>
          )
        }
      </QueryView>
    </section>
  );
}
