/**
 * A button that asks before it acts: a modal <dialog> (focus stays inside,
 * Escape cancels) naming what will happen.
 */
import { useRef, type ReactNode } from 'react';

export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  onConfirm,
  danger = false,
  disabled = false,
}: {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={danger ? 'danger' : undefined} onClick={() => dialog.current?.showModal()} disabled={disabled}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={title}>
        <form
          method="dialog"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === 'confirm') onConfirm();
          }}
        >
          <h2>{title}</h2>
          <div>{children}</div>
          <div className="actions">
            <button type="submit" value="cancel">
              Cancel
            </button>
            <button type="submit" value="confirm" className={danger ? 'danger' : 'primary'}>
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
