/**
 * Shows a JSON object, and for those allowed to, edits it: the text is
 * checked (valid JSON, an object, or null where null is allowed) before
 * anything is sent, the problem is named under the editor, and the
 * server's own answer (400, 403) is shown too.
 */
import { lazy, Suspense, useId, useState } from 'react';
import { ApiError } from '../api';
import type { JsonObject } from '../types';
import { Loading } from './states';

const JsonEditor = lazy(() => import('./json-editor'));

export function parseJsonObject(text: string, nullable: boolean): { value?: JsonObject | null; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
  if (value === null && nullable) return { value: null };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: nullable ? 'Must be a JSON object, or null to clear it.' : 'Must be a JSON object.' };
  }
  return { value: value as JsonObject };
}

/** Focusable, so that a keyboard reaches and scrolls a long value (axe: scrollable-region-focusable). */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" tabIndex={0} aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

export function JsonField({
  title,
  value,
  editable,
  nullable = false,
  onSave,
}: {
  title: string;
  value: JsonObject | null;
  editable: boolean;
  nullable?: boolean;
  onSave: (value: JsonObject | null) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const problemId = useId();

  function change(next: string) {
    setText(next);
    setProblem(parseJsonObject(next, nullable).problem);
  }

  async function save() {
    const parsed = parseJsonObject(text, nullable);
    if (parsed.problem !== undefined) {
      setProblem(parsed.problem);
      return;
    }
    setSaving(true);
    try {
      await onSave(parsed.value ?? null);
      setEditing(false);
      setProblem(undefined);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not save.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card" aria-label={title}>
      <div className="card-head">
        <h2>{title}</h2>
        {editable && !editing && (
          <button
            type="button"
            onClick={() => {
              setText(JSON.stringify(value, null, 2));
              setProblem(undefined);
              setEditing(true);
            }}
          >
            Edit {title.toLowerCase()}
          </button>
        )}
      </div>
      {editing ? (
        <>
          <Suspense fallback={<Loading label="Loading the editor…" />}>
            <JsonEditor initial={text} onChange={change} label={`${title} (JSON)`} invalid={problem !== undefined} describedBy={problemId} />
          </Suspense>
          <p id={problemId} className={problem === undefined ? 'hint' : 'problem'} role={problem === undefined ? undefined : 'alert'}>
            {problem ?? (nullable ? 'A JSON object, or null to clear it.' : 'A JSON object.')}
          </p>
          <div className="actions">
            <button type="button" onClick={() => setEditing(false)} disabled={saving}>
              Cancel
            </button>
            <button type="button" className="primary" onClick={() => void save()} disabled={saving || problem !== undefined}>
              {saving ? 'Saving…' : `Save ${title.toLowerCase()}`}
            </button>
          </div>
        </>
      ) : value === null ? (
        <p className="muted">None.</p>
      ) : (
        <JsonView value={value} label={title} />
      )}
    </section>
  );
}
