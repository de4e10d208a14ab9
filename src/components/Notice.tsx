import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

interface NoticeProps {
  severity: 'error' | 'info' | 'success' | 'warning';
  children: ReactNode;
}

/**
 * A plain message box in the colours of an Alert, without Alert's icons and close button: the login page uses it
 * to stay light. Pages beyond login use MUI's Alert.
 */
export function Notice({ severity, children }: NoticeProps) {
  return (
    <Box
      role={severity === 'error' ? 'alert' : 'status'}
      sx={{
        mb: 1,
        px: 2,
        py: 1.25,
        borderRadius: 1,
        border: 1,
        borderColor: `${severity}.main`,
        color: `${severity}.light`,
        bgcolor: 'rgba(255, 255, 255, 0.03)',
        typography: 'body2',
      }}
    >
      {children}
    </Box>
  );
}
