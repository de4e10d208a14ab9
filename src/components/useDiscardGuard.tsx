import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

export const DISCARD_TITLE = 'Discard changes?';

interface DiscardGuardOptions {
  /** The form differs from what it opened with. */
  dirty: boolean;
  /** While saving the dialog cannot be dismissed at all. */
  busy: boolean;
  /** Closes the form, dropping what was typed. */
  onDiscard: () => void;
}

/** Whether two form states differ (plain data: strings, numbers, booleans, arrays). */
export function formChanged(current: unknown, initial: unknown): boolean {
  return JSON.stringify(current) !== JSON.stringify(initial);
}

/**
 * Escape and a backdrop click close a form dialog only when nothing was changed; otherwise they ask first,
 * so a stray key (say, a second Escape meant for a list) does not throw away what was typed.
 * The dialog's own Cancel button stays an explicit discard.
 */
export function useDiscardGuard({ dirty, busy, onDiscard }: DiscardGuardOptions): {
  onClose: (() => void) | undefined;
  prompt: ReactNode;
} {
  const [asking, setAsking] = useState(false);
  const onClose = busy ? undefined : () => (dirty ? setAsking(true) : onDiscard());
  const prompt = (
    <ConfirmDialog
      open={asking}
      title={DISCARD_TITLE}
      message="What you entered in this form will be lost."
      confirmLabel="Discard"
      cancelLabel="Keep editing"
      confirmColor="warning"
      onConfirm={() => {
        setAsking(false);
        onDiscard();
      }}
      onCancel={() => setAsking(false)}
    />
  );
  return { onClose, prompt };
}
