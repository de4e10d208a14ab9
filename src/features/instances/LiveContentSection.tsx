import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { LiveContent } from '../../../contract/content';
import { LoudnessStrip } from '../../components/LoudnessStrip';
import { formatMediaDuration } from '../../lib/recording-outcome';

const CONDITION_LABELS: Record<LiveContent['conditions'][number]['kind'], string> = {
  audio_silent: 'Audio silent',
  audio_missing: 'No sound track',
  picture_frozen: 'Picture frozen',
  picture_black: 'Picture black',
};

/** The strip spans the 5 minutes of readings a running recording's summary carries (RECENT_CONTENT_WINDOWS). */
const LIVE_SLOTS = 30;

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * A running recording's content as its recorder last reported it: the conditions going on, then the
 * loudness strip of its last 5 minutes (the one a finished recording's player draws over its window).
 */
export function LiveContentSection({ content }: { content: LiveContent }) {
  return (
    <Box data-testid="live-content">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        {content.conditions.length === 0 ? (
          <Chip size="small" color="success" variant="outlined" label="Sound and picture as expected" />
        ) : (
          content.conditions.map((condition) => (
            <Chip
              key={condition.kind}
              size="small"
              color="warning"
              label={`${CONDITION_LABELS[condition.kind]} for ${formatMediaDuration(condition.seconds)} (since ${clock(condition.since)})`}
            />
          ))
        )}
      </Box>
      {content.windows.length === 0 ? (
        <Typography variant="body2">
          No loudness readings yet: the first comes about 25 s into the recording.
        </Typography>
      ) : (
        <LoudnessStrip content={content} slots={LIVE_SLOTS} />
      )}
    </Box>
  );
}
