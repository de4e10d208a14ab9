import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface StatCardProps {
  title: string;
  /** Undefined while the figure is not known (still loading, or unreadable): shown as "—", never as 0. */
  value: ReactNode | undefined;
  subtitle?: ReactNode;
  icon?: ReactNode;
  color?: 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';
  children?: ReactNode;
}

/** What a figure not known yet reads as. */
export const NOT_KNOWN = '—';

/** A summary figure with a title, as on the dashboard, instances and AMI pages. */
export function StatCard({ title, value, subtitle, icon, color = 'primary', children }: StatCardProps) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography color="textSecondary" variant="body2" gutterBottom>
              {title}
            </Typography>
            {/* A div, not a p: some values are chips, and a chip's div cannot sit inside a paragraph. */}
            <Typography variant="h4" component="div" sx={{ fontWeight: 500 }}>
              {value === undefined ? NOT_KNOWN : value}
            </Typography>
            {subtitle && (
              <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
                {subtitle}
              </Typography>
            )}
          </Box>
          {icon && <Box sx={{ color: `${color}.main`, '& svg': { fontSize: 40 } }}>{icon}</Box>}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}
