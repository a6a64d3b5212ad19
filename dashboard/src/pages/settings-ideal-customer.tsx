/**
 * The ideal customer in the workspace settings (CONTRACT C6.2, C7.5): the
 * industries, employee ranges and countries whose companies earn fit points
 * in the lead score (docs/intelligence.md). Everyone reads it; admins change
 * it (the server checks it, as the CLI's `workspace settings` does).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { QueryView } from '../components/states';
import type { IdealCustomer } from '../types';

const FIELDS: { name: keyof IdealCustomer; label: string; hint: string }[] = [
  { name: 'industries', label: 'Industries', hint: 'Compared with a company’s main industry, in any case, e.g. Software, Financial Services.' },
  { name: 'employee_ranges', label: 'Employee ranges', hint: 'Compared with a company’s employees, e.g. 51-200, 201-500.' },
  { name: 'countries', label: 'Countries', hint: 'Two-letter ISO codes, e.g. DE, FR, US.' },
];

const split = (text: string) =>
  text
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');

function Values({ values }: { values: string[] }) {
  if (values.length === 0) return <span className="muted">any</span>;
  return (
    <ul className="chips">
      {values.map((value) => (
        <li key={value}>{value}</li>
      ))}
    </ul>
  );
}

export function IdealCustomerSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [saved, setSaved] = useState(false);
  const ideal = useQuery({ queryKey: ['ideal-customer'], queryFn: () => api<{ data: IdealCustomer }>('/ideal-customer').then((body) => body.data) });
  const save = useMutation({
    mutationFn: (body: IdealCustomer) => api<{ data: IdealCustomer }>('/ideal-customer', { method: 'PUT', body }),
    onSuccess: ({ data }) => {
      client.setQueryData(['ideal-customer'], data);
      setSaved(true);
    },
    onError: () => setSaved(false),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => split(String(form.get(name) ?? ''));
    save.mutate({ industries: value('industries'), employee_ranges: value('employee_ranges'), countries: value('countries').map((code) => code.toUpperCase()) });
  }
  return (
    <section className="card" aria-labelledby="ideal-customer-title">
      <h2 id="ideal-customer-title">Ideal customer</h2>
      <p className="hint">Leads whose company matches earn fit points in their score. Empty means no preference.</p>
      <QueryView query={ideal} loading="Loading the ideal customer…">
        {(data) =>
          admin ? (
            <form className="stacked-form" onSubmit={submit} aria-label="Ideal customer" key={JSON.stringify(data)}>
              {FIELDS.map((field) => (
                <label key={field.name}>
                  {field.label}
                  <input name={field.name} defaultValue={data[field.name].join(', ')} aria-describedby={`${field.name}-hint`} />
                  <span id={`${field.name}-hint`} className="hint field-hint">
                    {field.hint} Separate them with commas.
                  </span>
                </label>
              ))}
              <button type="submit" className="primary" disabled={save.isPending}>
                Save ideal customer
              </button>
              {save.isError && (
                <p className="problem" role="alert">
                  {save.error instanceof ApiError ? save.error.message : 'Could not save the ideal customer.'}
                </p>
              )}
              {saved && !save.isError && <p role="status">Ideal customer saved. Scores follow within a minute.</p>}
            </form>
          ) : (
            <dl className="fields">
              {FIELDS.map((field) => (
                <div key={field.name} className="field-row">
                  <dt>{field.label}</dt>
                  <dd>
                    <Values values={data[field.name]} />
                  </dd>
                </div>
              ))}
            </dl>
          )
        }
      </QueryView>
    </section>
  );
}
