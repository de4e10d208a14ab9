import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useEffect, useState } from 'react';
import {
  STREAM_TEST_SECONDS,
  streamTestRequestSchema,
  type StreamTestReport,
  type StreamTestRequest,
} from '../../contract/stream-test';
import { fetchStreamTestClip, STREAM_TEST_MESSAGES, streamTestErrorMessage, useTestStream } from '../api/stream-tests';
import { formatBytes } from '../lib/recording-outcome';

const channels = (count: number | null) =>
  count === 1 ? 'mono' : count === 2 ? 'stereo' : count ? `${count} channels` : null;

/** What the test found, one line per kind of media. */
export function streamTestFindings(report: StreamTestReport): { label: string; value: string }[] {
  const { video, audio } = report;
  const videoText = video
    ? [video.codec, `${video.width}×${video.height}`, video.frame_rate === null ? null : `${video.frame_rate} fps`]
        .filter(Boolean)
        .join(', ')
    : 'None';
  const audioText = audio
    ? [audio.codec, audio.sample_rate === null ? null : `${audio.sample_rate / 1000} kHz`, channels(audio.channels)]
        .filter(Boolean)
        .join(', ')
    : 'None';
  const kept = new Date(report.clip_expires_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return [
    // A mosque's stream is resolved on the server (its ID_token, a stream page): what was opened.
    { label: 'Stream', value: report.url },
    { label: 'Video', value: videoText },
    { label: 'Audio', value: audioText },
    { label: 'Recorded', value: `${report.seconds} s, ${formatBytes(report.bytes)} (clip kept until ${kept})` },
  ];
}

/**
 * "Test stream": records a URL (or a mosque's own stream, resolved on the server) for half a minute now
 * through the recorders' capture path, then shows the codecs it found and offers the clip to play.
 * Nothing is launched or scheduled.
 */
export function StreamTest({ request }: { request: StreamTestRequest }) {
  const test = useTestStream();
  const [clip, setClip] = useState<string | null>(null);
  const [clipError, setClipError] = useState<string | null>(null);
  const parsed = streamTestRequestSchema.safeParse(request);

  // The clip's object URL is released when it is replaced or the form closes.
  useEffect(() => () => (clip ? URL.revokeObjectURL(clip) : undefined), [clip]);

  const run = () => {
    if (!parsed.success) return;
    setClip(null);
    setClipError(null);
    test.mutate(parsed.data);
  };
  const play = async (id: string) => {
    setClipError(null);
    try {
      setClip(URL.createObjectURL(await fetchStreamTestClip(id)));
    } catch (error) {
      setClipError(streamTestErrorMessage(error, STREAM_TEST_MESSAGES.clipFailed));
    }
  };

  return (
    <Box role="region" aria-label="Stream test" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box>
        <Button
          variant="outlined"
          size="small"
          startIcon={<NetworkCheckIcon />}
          disabled={!parsed.success || test.isPending}
          onClick={run}
        >
          Test stream
        </Button>
      </Box>
      {test.isPending && (
        <Box>
          <LinearProgress aria-label="Testing the stream" />
          <Typography variant="caption" color="text.secondary">
            Recording {STREAM_TEST_SECONDS} s of the stream…
          </Typography>
        </Box>
      )}
      {test.isError && <Alert severity="error">{streamTestErrorMessage(test.error)}</Alert>}
      {test.isSuccess && (
        <Box
          component="dl"
          aria-label="Stream test results"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}
        >
          {streamTestFindings(test.data).map(({ label, value }) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {test.isSuccess && !clip && (
        <Box>
          <Button size="small" startIcon={<PlayArrowIcon />} onClick={() => void play(test.data.id)}>
            Play clip
          </Button>
        </Box>
      )}
      {clipError && <Alert severity="error">{clipError}</Alert>}
      {clip && (
        <video
          src={clip}
          controls
          autoPlay
          muted
          aria-label="Stream test clip"
          style={{ width: '100%', maxHeight: 240, background: '#000' }}
        />
      )}
    </Box>
  );
}
