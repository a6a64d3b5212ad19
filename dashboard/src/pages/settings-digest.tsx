/**
 * The email digest in the settings (CONTRACT C10.4): each member chooses
 * their own (`Email digest`: off, daily, weekly) and sees when the next one
 * comes; the workspace's time zone, whose 08:00 sends digests, is shown to
 * everyone and set by admins.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { QueryView } from '../components/states';
import { Time } from '../components/time';

interface DigestSetting {
  digest: 'off' | 'daily' | 'weekly';
  time_zone: string;
  next_at: string | null;
}

const KEY = ['account', 'digest'];
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? ['UTC', ...Intl.supportedValuesOf('timeZone')] : ['UTC'];

function TimeZoneForm({ current, onSaved }: { current: string; onSaved: () => void }) {
  const [problem, setProblem] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (time_zone: string) => api('/workspace/time-zone', { method: 'PUT', body: { time_zone } }),
    onSuccess: () => {
      setProblem(undefined);
      onSaved();
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'Could not save the time zone.'),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(String(new FormData(event.currentTarget).get('time_zone') ?? '').trim());
  }
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Workspace time zone">
      <label>
        Workspace time zone
        <input name="time_zone" list="time-zones" defaultValue={current} required maxLength={64} autoComplete="off" />
        <datalist id="time-zones">
          {ZONES.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </label>
      <button type="submit" disabled={save.isPending}>
        Save time zone
      </button>
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

export function DigestSection({ admin }: { admin: boolean }) {
  const client = useQueryClient();
  const [saved, setSaved] = useState(false);
  const setting = useQuery({ queryKey: KEY, queryFn: () => api<{ data: DigestSetting }>('/account/digest').then((body) => body.data) });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: KEY });
    void client.invalidateQueries({ queryKey: ['workspace'] });
  };
  const choose = useMutation({
    mutationFn: (digest: string) => api<{ data: DigestSetting }>('/account/digest', { method: 'PUT', body: { digest } }),
    onSuccess: ({ data }) => {
      client.setQueryData(KEY, data);
      setSaved(true);
    },
  });
  return (
    <section className="card" aria-labelledby="digest-title">
      <h2 id="digest-title">Email digest</h2>
      <p className="hint">
        A summary by email of new qualified leads, the most engaged companies and the people who came back: daily at 08:00, or weekly on Mondays at
        08:00, in the workspace time zone. Your choice is yours alone.
      </p>
      <QueryView query={setting} loading="Loading your digest…">
        {(data) => (
          <>
            <form className="inline-form" aria-label="Your email digest" onSubmit={(event) => event.preventDefault()}>
              <label>
                Email digest
                <select
                  value={data.digest}
                  disabled={choose.isPending}
                  onChange={(event) => {
                    setSaved(false);
                    choose.mutate(event.target.value);
                  }}
                >
                  <option value="off">Off</option>
                  <option value="daily">Daily (08:00)</option>
                  <option value="weekly">Weekly (Monday 08:00)</option>
                </select>
              </label>
            </form>
            <p data-testid="digest-next" role={saved ? 'status' : undefined}>
              {data.next_at === null ? (
                'You get no digest.'
              ) : (
                <>
                  Next digest: <Time value={data.next_at} exact /> ({data.time_zone} 08:00)
                </>
              )}
            </p>
            {choose.isError && (
              <p className="problem" role="alert">
                {choose.error instanceof ApiError ? choose.error.message : 'Could not save your choice.'}
              </p>
            )}
            {admin ? (
              <TimeZoneForm key={data.time_zone} current={data.time_zone} onSaved={refresh} />
            ) : (
              <p>
                Workspace time zone: <strong>{data.time_zone}</strong> (an admin sets it)
              </p>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
