import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import { useLive } from '../live/context';

/** The top bar's Live/Offline chip, with Reconnect once the automatic attempts have run out. */
export function LiveIndicator() {
  const { connected, gaveUp, reconnect } = useLive();
  return (
    <>
      <Chip
        size="small"
        variant="outlined"
        color={connected ? 'success' : 'default'}
        icon={<FiberManualRecordIcon sx={{ fontSize: 12 }} />}
        label={connected ? 'Live' : 'Offline'}
        aria-label={connected ? 'Live feed connected' : 'Live feed offline'}
      />
      {!connected && gaveUp && (
        <Button size="small" variant="outlined" color="warning" onClick={reconnect}>
          Reconnect
        </Button>
      )}
    </>
  );
}
