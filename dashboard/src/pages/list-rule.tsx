/**
 * A segment's rule on its list's page (C9.6): shown as JSON for reading,
 * and, for members and admins, `Edit rule` opens the same builder as `New
 * segment` with the rule loaded into its controls. A rule the controls
 * cannot show exactly (written through the API) is edited in the JSON
 * editor instead, with a sentence saying why.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { JsonField, JsonView } from '../components/json-field';
import { SegmentBuilder } from '../components/segment-builder';
import { rowsOf } from '../segment-draft';
import { can, useSession } from '../session';
import type { JsonObject, SegmentRule } from '../types';

export function SegmentRuleCard({ listId, name, rule }: { listId: string; name: string; rule: JsonObject }) {
  const client = useQueryClient();
  const session = useSession();
  const [editing, setEditing] = useState(false);
  const editable = can(session.data, 'member');
  const loaded = rowsOf(rule);
  const save = async (body: { name?: string; rule: SegmentRule | JsonObject | null }) => {
    await api(`/lists/${listId}`, { method: 'PATCH', body });
    await client.invalidateQueries({ queryKey: ['list', listId] });
    await client.invalidateQueries({ queryKey: ['list-members', listId] });
    await client.invalidateQueries({ queryKey: ['lists'] });
  };

  if (loaded.group === undefined) {
    return (
      <>
        {editable && (
          <p className="hint card" role="note">
            The builder cannot show this rule, because {loaded.reason}; edit it as JSON below.
          </p>
        )}
        <JsonField title="Rule" value={rule} editable={editable} onSave={(value) => save({ rule: value })} />
      </>
    );
  }
  if (editing) {
    return (
      <SegmentBuilder
        title="Edit rule"
        initialName={name}
        initialGroup={loaded.group}
        onCancel={() => setEditing(false)}
        onSave={async (draft) => {
          await save(draft);
          setEditing(false);
        }}
      />
    );
  }
  return (
    <section className="card" aria-labelledby="list-rule-title">
      <div className="card-head">
        <h2 id="list-rule-title">Rule</h2>
        {editable && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit rule
          </button>
        )}
      </div>
      <JsonView value={rule} label="Rule" />
    </section>
  );
}
