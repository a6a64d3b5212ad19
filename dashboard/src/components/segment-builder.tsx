/**
 * The segment builder (C9.6): a rule made of controls, never JSON. Fields,
 * operators and values come from lists (the grammar's fields and event
 * kinds, the traits and values seen in the workspace); groups nest as the
 * grammar allows. While the rule is being built, the number of people it
 * matches is asked of the server (debounced) and shown before saving.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, ApiError, query } from '../api';
import {
  COMPANY_FIELDS,
  EVENT_KIND_LABELS,
  EVENT_KINDS,
  FIELD_LABELS,
  grammarField,
  IDENTITY_FIELDS,
  MAX_RULE_DEPTH,
  newEvents,
  newField,
  newGroup,
  OPERATOR_LABELS,
  operatorsFor,
  ruleOf,
  type EventRow,
  type FieldRow,
  type GroupRow,
  type Row,
} from '../segment-draft';
import type { DraftCount, SegmentRule, Suggestion } from '../types';

const COUNT_DELAY_MS = 400;
const STATUSES = ['new', 'engaged', 'qualified', 'disqualified', 'customer'];

/** The values the server suggests for a field (bounded there: the most frequent twenty). */
function useSuggestions(of: string | undefined) {
  return useQuery({
    queryKey: ['segment-suggestions', of],
    queryFn: () => api<{ data: Suggestion[] }>(`/segments/suggestions${query({ of })}`).then((body) => body.data.map((entry) => entry.value)),
    enabled: of !== undefined,
    staleTime: 60_000,
  });
}

/** How many people the draft matches, asked COUNT_DELAY_MS after the last change. */
function useDraftCount(rule: SegmentRule | undefined) {
  const text = rule === undefined ? undefined : JSON.stringify(rule);
  const [asked, setAsked] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text), COUNT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const counted = useQuery({
    queryKey: ['segment-count', asked],
    queryFn: () => api<{ data: DraftCount }>('/segments/count', { method: 'POST', body: { rule: JSON.parse(asked as string) as unknown } }).then((body) => body.data),
    enabled: asked !== undefined,
    retry: false,
  });
  return {
    count: counted.data,
    problem: counted.error === null ? undefined : counted.error instanceof ApiError ? counted.error.message : 'Could not count.',
    pending: asked !== text || counted.isFetching,
  };
}

function countText(count: DraftCount): string {
  const people = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'person' : 'people'}`;
  if (count.complete) return `${people(count.count)} ${count.count === 1 ? 'matches' : 'match'}`;
  return `${people(count.count)} of the newest ${count.examined.toLocaleString('en')} match (the count stops there)`;
}

function Datalist({ id, values }: { id: string; values: readonly string[] }) {
  return (
    <datalist id={id}>
      {values.map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
}

function FieldChoice({ value, onChange }: { value: string; onChange: (field: string) => void }) {
  return (
    <label>
      Field
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <optgroup label="Person">
          {IDENTITY_FIELDS.map((field) => (
            <option key={field} value={field}>
              {FIELD_LABELS[field]}
            </option>
          ))}
          <option value="trait">Trait…</option>
        </optgroup>
        <optgroup label="Company">
          {COMPANY_FIELDS.map((field) => (
            <option key={field} value={field}>
              {FIELD_LABELS[field]}
            </option>
          ))}
        </optgroup>
        <optgroup label="Activity">
          <option value="events">{FIELD_LABELS.events}</option>
        </optgroup>
      </select>
    </label>
  );
}

/** What a field's values are suggested from (undefined: nothing to suggest, or a fixed list). */
function suggestionSource(row: FieldRow): string | undefined {
  if (row.field === 'trait') return row.traitKey.trim() === '' ? undefined : grammarField(row);
  if (row.field === 'country' || row.field === 'city' || row.field.startsWith('company.')) return row.field;
  return undefined;
}

function FieldRowControls({ row, onChange }: { row: FieldRow; onChange: (row: Row) => void }) {
  const id = useId();
  const traits = useSuggestions(row.field === 'trait' ? 'traits' : undefined);
  const values = useSuggestions(suggestionSource(row));
  const operators = operatorsFor(row.field);
  const choose = (field: string) => {
    if (field === 'events') return onChange({ ...newEvents(), key: row.key });
    const ops = operatorsFor(field);
    onChange({ ...row, field, op: ops.includes(row.op) ? row.op : ops[0]!, value: field === 'is_favorite' ? 'true' : row.value });
  };
  const suggested = row.field === 'status' ? STATUSES : (values.data ?? []);
  return (
    <>
      <FieldChoice value={row.field} onChange={choose} />
      {row.field === 'trait' && (
        <label>
          Trait name
          <input value={row.traitKey} list={`${id}-traits`} onChange={(event) => onChange({ ...row, traitKey: event.target.value })} maxLength={100} placeholder="plan" />
          <Datalist id={`${id}-traits`} values={traits.data ?? []} />
        </label>
      )}
      <label>
        Operator
        <select value={row.op} onChange={(event) => onChange({ ...row, op: event.target.value })}>
          {operators.map((op) => (
            <option key={op} value={op}>
              {OPERATOR_LABELS[op]}
            </option>
          ))}
        </select>
      </label>
      {row.field === 'is_favorite' ? (
        <label>
          Value
          <select value={row.value === 'false' ? 'false' : 'true'} onChange={(event) => onChange({ ...row, value: event.target.value })}>
            <option value="true">yes</option>
            <option value="false">no</option>
          </select>
        </label>
      ) : (
        !row.op.startsWith('exists:') && (
          <label>
            Value
            <input
              value={row.value}
              list={`${id}-values`}
              inputMode={row.field === 'score' ? 'numeric' : undefined}
              placeholder={row.op === 'in' ? 'one, two, three' : ''}
              maxLength={500}
              onChange={(event) => onChange({ ...row, value: event.target.value })}
            />
            <Datalist id={`${id}-values`} values={suggested} />
          </label>
        )
      )}
    </>
  );
}

function EventRowControls({ row, onChange }: { row: EventRow; onChange: (row: Row) => void }) {
  return (
    <>
      <FieldChoice value="events" onChange={(field) => field !== 'events' && onChange({ ...newField(), key: row.key, field, op: operatorsFor(field)[0]!, value: field === 'is_favorite' ? 'true' : '' })} />
      <label>
        Kind
        <select value={row.kind} onChange={(event) => onChange({ ...row, kind: event.target.value })}>
          {EVENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {EVENT_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </label>
      <label>
        At least
        <input type="number" min={1} value={row.atLeast} onChange={(event) => onChange({ ...row, atLeast: event.target.value })} />
      </label>
      <label>
        In the last (days)
        <input type="number" min={1} max={30} value={row.withinDays} onChange={(event) => onChange({ ...row, withinDays: event.target.value })} />
      </label>
      <label>
        Page (optional)
        <input value={row.path} placeholder="/pricing*" maxLength={500} onChange={(event) => onChange({ ...row, path: event.target.value })} />
      </label>
      <label>
        Event name (optional)
        <input value={row.name} placeholder="signup" maxLength={100} onChange={(event) => onChange({ ...row, name: event.target.value })} />
      </label>
    </>
  );
}

function GroupControls({ group, onChange, depth, prefix }: { group: GroupRow; onChange: (group: GroupRow) => void; depth: number; prefix: string }) {
  const set = (index: number, row: Row) => onChange({ ...group, conditions: group.conditions.map((current, at) => (at === index ? row : current)) });
  const remove = (index: number) => onChange({ ...group, conditions: group.conditions.filter((_, at) => at !== index) });
  return (
    <div className="segment-group">
      <label className="segment-match">
        {prefix === '' ? 'Match' : `Group ${prefix.slice(0, -1)} matches`}
        <select value={group.match} onChange={(event) => onChange({ ...group, match: event.target.value as GroupRow['match'] })}>
          <option value="all">all of these conditions</option>
          <option value="any">any of these conditions</option>
        </select>
      </label>
      <ol className="segment-conditions">
        {group.conditions.map((row, index) => {
          const name = `${prefix}${index + 1}`;
          return (
            <li key={row.key}>
              <fieldset className="segment-condition">
                <legend>{row.type === 'group' ? `Group ${name}` : `Condition ${name}`}</legend>
                {row.type === 'group' ? (
                  <GroupControls group={row} onChange={(next) => set(index, next)} depth={depth + 1} prefix={`${name}.`} />
                ) : row.type === 'events' ? (
                  <EventRowControls row={row} onChange={(next) => set(index, next)} />
                ) : (
                  <FieldRowControls row={row} onChange={(next) => set(index, next)} />
                )}
                <button type="button" className="segment-remove" aria-label={`Remove ${row.type === 'group' ? 'group' : 'condition'} ${name}`} onClick={() => remove(index)}>
                  Remove
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="segment-add">
        <button type="button" onClick={() => onChange({ ...group, conditions: [...group.conditions, newField()] })}>
          {prefix === '' ? 'Add condition' : `Add condition to group ${prefix.slice(0, -1)}`}
        </button>
        {depth < MAX_RULE_DEPTH && (
          <button type="button" onClick={() => onChange({ ...group, conditions: [...group.conditions, newGroup('any')] })}>
            {prefix === '' ? 'Add group' : `Add group to group ${prefix.slice(0, -1)}`}
          </button>
        )}
      </div>
    </div>
  );
}

export interface SegmentBuilderProps {
  title: string;
  initialName: string;
  initialGroup: GroupRow;
  onSave: (draft: { name: string; rule: SegmentRule }) => Promise<unknown>;
  onCancel: () => void;
}

export function SegmentBuilder({ title, initialName, initialGroup, onSave, onCancel }: SegmentBuilderProps) {
  const titleId = useId();
  const [name, setName] = useState(initialName);
  const [group, setGroup] = useState(initialGroup);
  const [problem, setProblem] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const draft = ruleOf(group);
  const counted = useDraftCount(draft.rule);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (draft.rule === undefined) {
      setProblem(draft.problem);
      return;
    }
    setSaving(true);
    try {
      await onSave({ name: name.trim(), rule: draft.rule });
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not save the segment.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card segment-builder" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <form onSubmit={(event) => void save(event)}>
        <label className="segment-name">
          Segment name
          <input value={name} required maxLength={200} onChange={(event) => setName(event.target.value)} placeholder="Pro plans at software companies" />
        </label>
        <GroupControls group={group} onChange={setGroup} depth={1} prefix="" />
        <p className="segment-count" aria-live="polite" role="status">
          {draft.rule === undefined
            ? `To see how many people match: ${draft.problem ?? 'finish the conditions'}.`
            : counted.problem !== undefined
              ? counted.problem
              : counted.count === undefined || counted.pending
                ? 'Counting the people who match…'
                : countText(counted.count)}
        </p>
        {problem !== undefined && (
          <p className="problem" role="alert">
            {problem}
          </p>
        )}
        <div className="segment-actions">
          <button type="submit" className="primary" disabled={saving}>
            Save segment
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
