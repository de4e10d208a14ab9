import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A label and its value on one line (wrapping on narrow screens). */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'space-between',
        alignItems: 'center',
        columnGap: 2,
        rowGap: 0.5,
        py: 0.75,
      }}
    >
      <Typography color="textSecondary">{label}</Typography>
      <Box sx={{ minWidth: 0, overflowWrap: 'anywhere', textAlign: 'right' }}>{children}</Box>
    </Box>
  );
}
