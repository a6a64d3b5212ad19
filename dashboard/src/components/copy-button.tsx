/** Copies a text to the clipboard and says so (for keys and links shown once). */
import { useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="muted">
        {copied === 'yes' ? ' Copied.' : copied === 'no' ? ' Copy failed: select the text and copy it.' : ''}
      </span>
    </>
  );
}
