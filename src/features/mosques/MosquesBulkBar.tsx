import Button from '@mui/material/Button';
import type { MosqueBulkAction } from '../../../contract/mosque-list';
import { SelectionBar } from '../../components/SelectionBar';

/** What the bar can ask for: the server's bulk actions, and scheduling this Friday's recordings of the selection. */
export type MosqueSelectionAction = MosqueBulkAction | 'schedule';

interface MosquesBulkBarProps {
  count: number;
  busy: boolean;
  onAction: (action: MosqueSelectionAction) => void;
  onClear: () => void;
}

/** Shown while mosques are selected: how many, and what can be done to all of them at once. */
export function MosquesBulkBar({ count, busy, onAction, onClear }: MosquesBulkBarProps) {
  return (
    <SelectionBar label="Selected mosques" count={count} busy={busy} onClear={onClear}>
      <Button size="small" disabled={busy} onClick={() => onAction('activate')}>
        Activate
      </Button>
      <Button size="small" disabled={busy} onClick={() => onAction('deactivate')}>
        Deactivate
      </Button>
      <Button size="small" disabled={busy} onClick={() => onAction('schedule')}>
        Schedule Friday
      </Button>
      <Button size="small" color="error" disabled={busy} onClick={() => onAction('delete')}>
        Delete
      </Button>
    </SelectionBar>
  );
}

const VERBS: Record<MosqueSelectionAction, string> = {
  activate: 'Activate',
  deactivate: 'Deactivate',
  delete: 'Delete',
  schedule: 'Schedule',
};

/** The confirmation's title, question and button, naming the count: "Deactivate 3 mosques". */
export function bulkQuestion(
  action: MosqueSelectionAction,
  count: number,
): { title: string; message: string; confirmLabel: string } {
  const noun = count === 1 ? 'mosque' : 'mosques';
  const confirmLabel = VERBS[action];
  const title = `${confirmLabel} ${count} ${noun}`;
  const message = {
    delete: `Are you sure you want to delete ${count} ${noun}? This action cannot be undone.`,
    schedule: `Schedule this Friday's recordings of ${count} ${noun}?`,
    deactivate: `Deactivate ${count} ${noun}? They will not be recorded until activated again.`,
    activate: `Activate ${count} ${noun}? They will be recorded on their Fridays.`,
  }[action];
  return { title, message, confirmLabel };
}
