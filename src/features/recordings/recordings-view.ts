import { recordingStatusSchema, type RecordingStatus } from '../../../contract/instances';
import {
  RECORDING_SORT_FIELDS,
  type RecordingSortField,
  type RecordingsLibraryQuery,
} from '../../../contract/recordings';
import { listQueryOfView, listViewFromParams, oneOf, type ListView } from '../../lib/list-view';

/** What the library shows, as kept in the address: the list's view and `&friday=2026-11-20&status=failed&content_warnings=1`. */
export interface RecordingsView extends ListView<RecordingSortField> {
  friday: string | null;
  status: RecordingStatus | null;
  /** Only the recordings with a content warning (silent, no sound, frozen or black). */
  contentWarnings: boolean;
}

/** Reads the view from the address; not sorted by a column, the library is newest first. */
export function recordingsViewFromParams(params: URLSearchParams): RecordingsView {
  const friday = params.get('friday');
  return {
    ...listViewFromParams(params, RECORDING_SORT_FIELDS, 'desc'),
    friday: friday && /^\d{4}-\d{2}-\d{2}$/.test(friday) ? friday : null,
    status: oneOf(params.get('status'), recordingStatusSchema.options),
    contentWarnings: params.get('content_warnings') === '1',
  };
}

export function recordingsQueryOfView(view: RecordingsView): RecordingsLibraryQuery {
  return {
    ...listQueryOfView(view),
    ...(view.friday && { friday: view.friday }),
    ...(view.status && { status: view.status }),
    ...(view.contentWarnings && { content_warnings: '1' as const }),
  };
}
