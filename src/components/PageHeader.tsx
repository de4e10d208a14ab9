import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  subtitle?: string;
  /** Buttons and chips on the right. */
  actions?: ReactNode;
}

/** Marks the header row, so notifications can open below it instead of over its buttons. */
export const PAGE_HEADER_ATTRIBUTE = 'data-page-header';

export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <Box
      {...{ [PAGE_HEADER_ATTRIBUTE]: '' }}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 3 }}
    >
      <Box>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 500 }}>
          {title}
        </Typography>
        {subtitle && <Typography color="textSecondary">{subtitle}</Typography>}
      </Box>
      {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>{actions}</Box>}
    </Box>
  );
}
