import Button from '@mui/material/Button';
import { SelectionBar } from '../../components/SelectionBar';

export type RecordingBulkAction = 'links' | 'delete';

interface RecordingsBulkBarProps {
  count: number;
  busy: boolean;
  canDelete: boolean;
  onAction: (action: RecordingBulkAction) => void;
  onClear: () => void;
}

/** Shown while recordings are selected: save their download links as a list, or delete them (a superuser only). */
export function RecordingsBulkBar({ count, busy, canDelete, onAction, onClear }: RecordingsBulkBarProps) {
  return (
    <SelectionBar label="Selected recordings" count={count} busy={busy} onClear={onClear}>
      <Button size="small" disabled={busy} onClick={() => onAction('links')}>
        Download links
      </Button>
      {canDelete && (
        <Button size="small" color="error" disabled={busy} onClick={() => onAction('delete')}>
          Delete
        </Button>
      )}
    </SelectionBar>
  );
}

/** The confirmation's title, question and button, naming the count: "Delete 3 recordings". */
export function recordingsBulkQuestion(
  action: RecordingBulkAction,
  count: number,
): { title: string; message: string; confirmLabel: string } {
  const noun = count === 1 ? 'recording' : 'recordings';
  if (action === 'delete') {
    return {
      title: `Delete ${count} ${noun}`,
      message: `Are you sure you want to delete ${count} ${noun}? Their media will be removed from the store. This cannot be undone.`,
      confirmLabel: 'Delete',
    };
  }
  return {
    title: `Download links of ${count} ${noun}`,
    message: `Save a text file with a download link for each of the ${count} ${noun}? Each link works without signing in until it expires in a few hours, or until you sign out.`,
    confirmLabel: 'Save links',
  };
}

/** The saved list: one absolute link a line, as download managers and `wget -i` read it. */
export function linksFile(urls: string[], origin: string): string {
  return `${urls.map((url) => new URL(url, origin).href).join('\n')}\n`;
}
