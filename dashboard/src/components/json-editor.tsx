/**
 * A JSON editor: CodeMirror 6 with JSON highlighting, bracket matching, line
 * numbers and undo history, labelled for screen readers. Tab is left to the browser,
 * so the keyboard moves in and out of it like any field. Loaded only when
 * someone edits (React.lazy), so the rest of the dashboard stays small.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

export interface JsonEditorProps {
  initial: string;
  onChange: (text: string) => void;
  label: string;
  invalid: boolean;
  describedBy?: string;
}

export default function JsonEditor({ initial, onChange, label, invalid, describedBy }: JsonEditorProps) {
  const parent = useRef<HTMLDivElement>(null);
  const latest = useRef({ initial, onChange, label, describedBy });
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    latest.current.onChange = onChange;
  }, [onChange]);

  useEffect(() => {
    const { initial: doc, label: ariaLabel, describedBy: described } = latest.current;
    const attributes: Record<string, string> = { 'aria-label': ariaLabel, 'aria-multiline': 'true' };
    if (described !== undefined) attributes['aria-describedby'] = described;
    const editor = new EditorView({
      parent: parent.current as HTMLDivElement,
      state: EditorState.create({
        doc,
        extensions: [
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          json(),
          syntaxHighlighting(defaultHighlightStyle),
          bracketMatching(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of(attributes),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useEffect(() => {
    view.current?.contentDOM.setAttribute('aria-invalid', String(invalid));
  }, [invalid]);

  return <div className={invalid ? 'json-editor invalid' : 'json-editor'} ref={parent} />;
}
