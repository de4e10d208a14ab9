import Button from '@mui/material/Button';
import type { MosqueBulkAction } from '../../../contract/mosque-list';
import { SelectionBar } from '../../components/SelectionBar';
import { countOf } from '../../../contract/plural';

/** What the bar can ask for: the server's bulk actions, and scheduling this Friday's recordings of the selection. */
export type MosqueSelectionAction = MosqueBulkAction | 'schedule';

interface MosquesBulkBarProps {
  count: number;
  busy: boolean;
  onAction: (action: MosqueSelectionAction) => void;
  onClear: () => void;
  /** Offered when the whole page is selected and more mosques match: every one of them, on the server. */
  selectAll?: { total: number; onSelect: () => void };
  /** Every matching mosque is selected: the server acts on the filter, so Schedule Friday (which takes ids) is not offered. */
  allMatching?: boolean;
}

/** Shown while mosques are selected: how many, and what can be done to all of them at once. */
export function MosquesBulkBar({
  count,
  busy,
  onAction,
  onClear,
  selectAll,
  allMatching = false,
}: MosquesBulkBarProps) {
  return (
    <SelectionBar label="Selected mosques" count={count} busy={busy} onClear={onClear}>
      {selectAll && (
        <Button size="small" variant="outlined" disabled={busy} onClick={selectAll.onSelect}>
          {`Select all ${selectAll.total.toLocaleString('en')} matching`}
        </Button>
      )}
      <Button size="small" disabled={busy} onClick={() => onAction('activate')}>
        Activate
      </Button>
      <Button size="small" disabled={busy} onClick={() => onAction('deactivate')}>
        Deactivate
      </Button>
      {!allMatching && (
        <Button size="small" disabled={busy} onClick={() => onAction('schedule')}>
          Schedule Friday
        </Button>
      )}
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
  const mosques = countOf(count, 'mosque');
  const confirmLabel = VERBS[action];
  const title = `${confirmLabel} ${mosques}`;
  const message = {
    delete: `Are you sure you want to delete ${mosques}? This action cannot be undone.`,
    schedule: `Schedule this Friday's recordings of ${mosques}?`,
    deactivate: `Deactivate ${mosques}? They will not be recorded until activated again.`,
    activate: `Activate ${mosques}? They will be recorded on their Fridays.`,
  }[action];
  return { title, message, confirmLabel };
}
