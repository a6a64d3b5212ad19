/**
 * Members in the workspace settings (CONTRACT C7.5): everyone sees who
 * belongs; admins invite (a one-time link that sets the password, shown
 * with a copy button), change roles, remove members and make reset links.
 * The server keeps the last admin from being demoted or removed, and hands
 * out password links only for people whose every workspace this admin runs.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, type Page } from '../api';
import { ConfirmButton } from '../components/confirm';
import { CopyButton } from '../components/copy-button';
import { Pager } from '../components/pager';
import { QueryView } from '../components/states';
import { Time } from '../components/time';
import { exactTime } from '../format';
import type { Member, MemberInvite, ResetLink, Session } from '../types';

const LIMIT = 50;
const ROLES = ['viewer', 'member', 'admin'] as const;

interface Link {
  label: string;
  url: string | null;
  expires_at: string | null;
}

function LinkOnce({ link, onDone }: { link: Link; onDone: () => void }) {
  return (
    <div className="secret" role="region" aria-label={link.label}>
      {link.url === null ? (
        <p>
          {link.label}: no link is needed or may be made here (they already have a password, or belong to workspaces you do not administer: an operator can
          run <code>leadlight user reset-password</code>).
        </p>
      ) : (
        <>
          <p className="warning" role="alert">
            {link.label}: send this link to them; it is shown only this once and works until {link.expires_at === null ? '' : exactTime(link.expires_at)}.
          </p>
          <div className="secret-row">
            <code aria-label="Link">{link.url}</code>
            <CopyButton text={link.url} label="Copy link" />
          </div>
        </>
      )}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

export function MembersSection({ session }: { session: Session }) {
  const admin = session.role === 'admin';
  const client = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [link, setLink] = useState<Link | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const members = useQuery({
    queryKey: ['members', offset],
    queryFn: () => api<Page<Member>>(`/members?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ['members'] });
  const fail = (error: unknown) => setProblem(error instanceof ApiError ? error.message : 'The request failed.');
  const invite = useMutation({
    mutationFn: (body: { email: string; role: string; name: string | null }) =>
      api<{ data: MemberInvite }>('/members', { method: 'POST', body }),
    onSuccess: ({ data }) => {
      setProblem(undefined);
      setLink({ label: `Invitation for ${data.member.email}`, url: data.invite_url, expires_at: data.expires_at });
      refresh();
    },
    onError: fail,
  });
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) => api(`/members/${id}`, { method: 'PATCH', body: { role } }),
    onSuccess: () => {
      setProblem(undefined);
      refresh();
      void client.invalidateQueries({ queryKey: ['session'] });
    },
    onError: (error) => {
      fail(error);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/members/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      setProblem(undefined);
      refresh();
    },
    onError: fail,
  });
  const reset = useMutation({
    mutationFn: (member: Member) =>
      api<{ data: ResetLink }>(`/members/${member.id}/reset-link`, { method: 'POST' }).then((body) => ({
        member,
        ...body.data,
      })),
    onSuccess: ({ member, reset_url, expires_at }) => setLink({ label: `Password link for ${member.email}`, url: reset_url, expires_at }),
    onError: fail,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    invite.mutate({ email: String(form.get('email') ?? '').trim(), role: String(form.get('role')), name: name === '' ? null : name });
    event.currentTarget.reset();
  }

  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {link !== null && <LinkOnce link={link} onDone={() => setLink(null)} />}
      {problem !== undefined && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      <QueryView query={members}>
        {(page) => (
          <>
            <div className="table-wrap">
              <table className="stack-narrow">
                <caption className="visually-hidden">Members of the workspace</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col" className="wide-only">
                      Email
                    </th>
                    <th scope="col">Role</th>
                    <th scope="col" className="wide-only">
                      Joined
                    </th>
                    {admin && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((member) => (
                    <tr key={member.id}>
                      <td>
                        {member.name ?? member.email}
                        {member.id === session.user.id && <span className="muted"> (you)</span>}
                        {member.status === 'invited' && <span className="badge"> invited</span>}
                      </td>
                      <td className="wide-only">{member.email}</td>
                      <td>
                        {admin ? (
                          <label>
                            <span className="visually-hidden">Role of {member.email}</span>
                            <select
                              value={member.workspace_role}
                              onChange={(event) => changeRole.mutate({ id: member.id, role: event.target.value })}
                              disabled={changeRole.isPending}
                            >
                              {!ROLES.includes(member.workspace_role as (typeof ROLES)[number]) && (
                                <option value={member.workspace_role}>{member.workspace_role}</option>
                              )}
                              {ROLES.map((role) => (
                                <option key={role} value={role}>
                                  {role}
                                </option>
                              ))}
                            </select>
                          </label>
                        ) : (
                          member.workspace_role
                        )}
                      </td>
                      <td className="wide-only">
                        <Time value={member.joined_at} />
                      </td>
                      {admin && (
                        <td className="row-actions">
                          <button type="button" onClick={() => reset.mutate(member)} disabled={reset.isPending}>
                            {member.status === 'invited' ? 'Invitation link' : 'Reset link'}
                          </button>
                          <ConfirmButton
                            label="Remove"
                            title={`Remove ${member.email}?`}
                            confirmLabel="Remove member"
                            danger
                            onConfirm={() => remove.mutate(member.id)}
                          >
                            <p>They lose access to this workspace at once. Their other workspaces are not affected.</p>
                          </ConfirmButton>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager label="Pages of members" offset={page.pagination.offset} limit={page.pagination.limit} total={page.pagination.total} onChange={setOffset} />
          </>
        )}
      </QueryView>
      {admin && (
        <form className="inline-form" onSubmit={submit} aria-label="Invite a member">
          <label>
            Email
            <input name="email" type="email" required maxLength={320} />
          </label>
          <label>
            Name
            <input name="name" maxLength={255} />
          </label>
          <label>
            Role
            <select name="role" defaultValue="member">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={invite.isPending}>
            Invite
          </button>
        </form>
      )}
    </section>
  );
}
