import Chip from '@mui/material/Chip';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';

/** A recording an operator stopped: what is missing was asked for, so it reads neither partial nor failed. */
export function StoppedChip({ by }: { by: string }) {
  // The label may wrap: on a tablet the status column of a wide table cannot give it one line.
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<StopCircleOutlinedIcon />}
      label={`Stopped by ${by}`}
      sx={{ height: 'auto', minHeight: 24, minWidth: 120, py: 0.25, '& .MuiChip-label': { whiteSpace: 'normal' } }}
    />
  );
}
