import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A label above its value, as in the profile's detail cards. */
export function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Box sx={{ typography: 'body1', overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}
