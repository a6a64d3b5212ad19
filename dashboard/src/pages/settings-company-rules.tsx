/**
 * Company rules in the workspace settings (CONTRACT C6.8): each rule with
 * what it matches (an AS number, an address range or a domain) and the
 * company it names, or "Not a company". Everyone who reads the workspace
 * sees them; admins add them (the company chosen from the workspace's
 * companies) and delete them after confirming. A rule wins over the
 * automatic sources (email, network, reverse DNS) for events after it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { ConfirmButton } from '../components/confirm';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { Company, CompanyRule } from '../types';

type MatchKind = 'asn' | 'cidr' | 'domain';

const KINDS: { kind: MatchKind; label: string; placeholder: string }[] = [
  { kind: 'asn', label: 'AS number', placeholder: 'e.g. 64500' },
  { kind: 'cidr', label: 'Address range (CIDR)', placeholder: 'e.g. 203.0.113.0/24' },
  { kind: 'domain', label: 'Domain', placeholder: 'e.g. acme.com' },
];

function describe(rule: CompanyRule): string {
  if (rule.match.asn !== undefined) return `AS${rule.match.asn}`;
  return rule.match.cidr ?? rule.match.domain ?? '';
}

export function CompanyRulesSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const [kind, setKind] = useState<MatchKind>('asn');
  const rules = useQuery({
    queryKey: ['company-rules'],
    queryFn: () => api<{ data: CompanyRule[] }>('/company-rules?limit=100').then((body) => body.data),
  });
  const companies = useQuery({
    queryKey: ['company-rules', 'companies'],
    queryFn: () => api<{ data: Company[] }>('/companies?limit=100').then((body) => body.data),
  });
  const names = new Map((companies.data ?? []).map((company) => [company.id, company.name]));
  const refresh = () => void client.invalidateQueries({ queryKey: ['company-rules'] });
  const fail = (error: unknown) => setProblem(error instanceof ApiError ? error.message : 'The request failed.');
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<{ data: CompanyRule }>('/company-rules', { method: 'POST', body }),
    onSuccess: () => {
      setProblem(undefined);
      refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/company-rules/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      setProblem(undefined);
      refresh();
    },
    onError: fail,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const value = String(data.get('value') ?? '').trim();
    const match = kind === 'asn' ? { asn: Number(value) } : { [kind]: value };
    const target = String(data.get('company') ?? '');
    const body = target === '' ? { match, not_a_company: true } : { match, company_id: target };
    create.mutate(body, { onSuccess: () => form.reset() });
  }

  const current = KINDS.find((entry) => entry.kind === kind)!;
  return (
    <section className="card" aria-labelledby="company-rules-title">
      <h2 id="company-rules-title">Company rules</h2>
      <p className="hint">
        Name the company behind an AS number, an address range or a domain (of emails and reverse DNS names), or mark it as no company. A rule wins over
        what Leadlight finds by itself, for visits after it.
      </p>
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      <QueryView query={rules} loading="Loading company rules…">
        {(data) =>
          data.length === 0 ? (
            <Empty>No company rules.{admin ? ' Add one below.' : ' An admin can add one.'}</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Company rules</caption>
                <thead>
                  <tr>
                    <th scope="col">Matches</th>
                    <th scope="col">Company</th>
                    <th scope="col">Added</th>
                    {admin && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.map((rule) => (
                    <tr key={rule.id} data-company-rule-id={rule.id}>
                      <td className="mono">{describe(rule)}</td>
                      <td>{rule.not_a_company ? <span className="muted">Not a company</span> : (names.get(rule.company_id ?? '') ?? rule.company_id)}</td>
                      <td>
                        <Time value={rule.created_at} />
                      </td>
                      {admin && (
                        <td>
                          <ConfirmButton
                            label="Delete"
                            title="Delete this company rule?"
                            confirmLabel="Delete rule"
                            danger
                            onConfirm={() => remove.mutate(rule.id)}
                            disabled={remove.isPending}
                          >
                            <p>
                              Visits matching <strong>{describe(rule)}</strong> are matched automatically again from now on. Leads already made keep their
                              company.
                            </p>
                          </ConfirmButton>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      {admin && (
        <form className="inline-form" onSubmit={submit} aria-label="Add a company rule">
          <label>
            Match
            <select name="kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as MatchKind)}>
              {KINDS.map((entry) => (
                <option key={entry.kind} value={entry.kind}>
                  {entry.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            {current.label}
            <input name="value" required placeholder={current.placeholder} inputMode={kind === 'asn' ? 'numeric' : undefined} />
          </label>
          <label>
            Company
            <select name="company" defaultValue="">
              <option value="">Not a company</option>
              {(companies.data ?? []).map((company) => (
                <option key={company.id} value={company.id}>
                  {company.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add rule'}
          </button>
        </form>
      )}
    </section>
  );
}
