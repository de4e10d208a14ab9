import Chip from '@mui/material/Chip';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';

/** A recording an operator stopped: what is missing was asked for, so it reads neither partial nor failed. */
export function StoppedChip({ by }: { by: string }) {
  return <Chip size="small" variant="outlined" icon={<StopCircleOutlinedIcon />} label={`Stopped by ${by}`} />;
}
