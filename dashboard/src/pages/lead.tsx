/**
 * One lead, as a salesperson works it (C9.3): its person and company as
 * links, the score with its reasons, status and owner, the properties as a
 * table, and the notes (lead-work.tsx). Members also have the raw JSON of
 * properties and summary as an advanced editor, which checks the JSON
 * before anything is sent.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api } from '../api';
import { JsonField } from '../components/json-field';
import { QueryView } from '../components/states';
import { Time } from '../components/time';
import { text } from '../format';
import { can, useSession } from '../session';
import { LeadWork, Notes, PropertiesTable } from './lead-work';
import type { Company, Identity, JsonObject, Lead } from '../types';
import { ENGAGED_FROM, QUALIFIED_FROM } from '../score-thresholds';

function IdentityLink({ id }: { id: string }) {
  const identity = useQuery({ queryKey: ['identity', id], queryFn: () => api<{ data: Identity }>(`/identities/${id}`).then((body) => body.data) });
  return (
    <Link to="/identities/$identityId" params={{ identityId: id }}>
      {identity.isPending ? 'Loading…' : (identity.data?.name ?? identity.data?.email ?? 'Anonymous')}
    </Link>
  );
}

function CompanyLink({ id }: { id: string }) {
  const company = useQuery({ queryKey: ['company', id], queryFn: () => api<{ data: Company }>(`/companies/${id}`).then((body) => body.data) });
  return (
    <Link to="/companies/$companyId" params={{ companyId: id }}>
      {company.data?.name ?? 'Open the company'}
    </Link>
  );
}

function Score({ summary }: { summary: JsonObject | null }) {
  const score = summary?.score;
  if (typeof score !== 'number') {
    return (
      <section className="card" aria-label="Score">
        <h2>Score</h2>
        <p className="muted">Not scored yet: the score comes from the person's visits and how well they fit your ideal customer.</p>
      </section>
    );
  }
  const reasons = Array.isArray(summary?.score_reasons) ? summary.score_reasons.map(String) : [];
  return (
    <section className="card" aria-label="Score">
      <h2>Score</h2>
      <p className="score">
        <meter min={0} max={100} value={score} aria-label="Lead score" /> <strong>{score}</strong> / 100
      </p>
      <p className="explanation">
        Fit (up to 50: a business email, a known company, your ideal customer in Settings) plus engagement (up to 50: this person's visits of the last 30
        days, recent ones counting more). {score >= QUALIFIED_FROM ? 'Qualified' : score >= ENGAGED_FROM ? 'Engaged' : 'New'} by score: engaged from{' '}
        {ENGAGED_FROM}, qualified from {QUALIFIED_FROM}. What weighed most:
      </p>
      {reasons.length > 0 && (
        <ul>
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function LeadPage() {
  const { leadId } = useParams({ from: '/app/leads/$leadId' });
  const client = useQueryClient();
  const session = useSession();
  const lead = useQuery({ queryKey: ['lead', leadId], queryFn: () => api<{ data: Lead }>(`/leads/${leadId}`).then((body) => body.data) });
  const update = useMutation({
    mutationFn: (changes: { properties?: JsonObject; summary?: JsonObject | null }) =>
      api<{ data: Lead }>(`/leads/${leadId}`, { method: 'PATCH', body: changes }),
    onSuccess: ({ data }) => {
      client.setQueryData(['lead', leadId], data);
      void client.invalidateQueries({ queryKey: ['leads'] });
    },
  });
  const editable = can(session.data, 'member');
  return (
    <QueryView query={lead}>
      {(data) => (
        <>
          <nav aria-label="Breadcrumb" className="crumbs">
            <Link to="/leads">Leads</Link> / <span aria-current="page">{data.code ?? data.id}</span>
          </nav>
          <div className="page-head">
            <h1>Lead {data.code ?? data.id.slice(0, 8)}</h1>
            {data.source !== null && <span className="badge">{data.source}</span>}
          </div>
          <div className="grid-2">
            <section className="card" aria-label="Details">
              <h2>Details</h2>
              <dl className="fields">
                <dt>Created</dt>
                <dd>
                  <Time value={data.created_at} exact />
                </dd>
                <dt>Updated</dt>
                <dd>
                  <Time value={data.updated_at} exact />
                </dd>
                <dt>Person</dt>
                <dd>{data.identity_id === null ? 'Anonymous' : <IdentityLink id={data.identity_id} />}</dd>
                <dt>Company</dt>
                <dd>{data.company_id === null ? '—' : <CompanyLink id={data.company_id} />}</dd>
                <dt>Location</dt>
                <dd>{[data.location.city, data.location.country].filter(Boolean).map(String).join(', ') || '—'}</dd>
                <dt>Visitor</dt>
                <dd className="mono">{data.visitor_id}</dd>
                <dt>Session</dt>
                <dd className="mono">{text(data.session_id)}</dd>
                <dt>Lead id</dt>
                <dd className="mono">{data.id}</dd>
              </dl>
            </section>
            <Score summary={data.summary} />
          </div>
          <LeadWork lead={data} editable={editable} onSummary={(summary) => update.mutateAsync({ summary })} />
          <div className="grid-2">
            <PropertiesTable properties={data.properties} />
            <Notes leadId={data.id} editable={editable} />
          </div>
          {editable && (
            <details className="card advanced">
              <summary>Advanced: edit the raw JSON</summary>
              <JsonField title="Properties" value={data.properties} editable={editable} onSave={(value) => update.mutateAsync({ properties: value ?? {} })} />
              <JsonField title="Summary" value={data.summary} editable={editable} nullable onSave={(value) => update.mutateAsync({ summary: value })} />
            </details>
          )}
        </>
      )}
    </QueryView>
  );
}
