import Chip, { type ChipProps } from '@mui/material/Chip';
import { instanceStateColor } from '../lib/instance-state';

/** An instance state as a coloured chip (docs/reference.md section 4, Instance state). */
export function StateChip({ state, size = 'small' }: { state: string; size?: ChipProps['size'] }) {
  return <Chip label={state} color={instanceStateColor(state)} size={size} sx={{ textTransform: 'capitalize' }} />;
}
