import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { RECORDING_MESSAGES, useRecordingContent } from '../../api/recordings';
import { LoudnessStrip } from '../../components/LoudnessStrip';

/** The strip of a recording, loaded when it is shown: nothing to draw when its content was not measured. */
export function RecordingContentPanel({ recordingId }: { recordingId: string }) {
  const content = useRecordingContent(recordingId);
  if (content.isPending) return <CircularProgress size={20} aria-label="Loading the loudness strip" />;
  if (content.isError)
    return (
      <Alert severity="error">
        {RECORDING_MESSAGES.contentFailed}: {content.error.message}
      </Alert>
    );
  if (!content.data)
    return <Typography variant="body2">No loudness readings: the recorder did not measure this recording.</Typography>;
  return <LoudnessStrip content={content.data} />;
}
