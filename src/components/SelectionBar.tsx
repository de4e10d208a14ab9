import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface SelectionBarProps {
  /** What is selected, for assistive technology: "Selected mosques". */
  label: string;
  count: number;
  busy: boolean;
  onClear: () => void;
  /** The actions on the selection. */
  children: ReactNode;
}

/** Shown while rows of a table are selected: how many, what can be done to all of them at once, and Clear. */
export function SelectionBar({ label, count, busy, onClear, children }: SelectionBarProps) {
  return (
    <Toolbar
      variant="dense"
      role="toolbar"
      aria-label={label}
      sx={{ gap: 1, flexWrap: 'wrap', bgcolor: 'action.selected', borderRadius: 1, mx: 2, mb: 1 }}
    >
      <Typography sx={{ flex: '1 1 auto' }} role="status">
        {`${count.toLocaleString('en')} selected`}
      </Typography>
      {children}
      <Button size="small" color="inherit" disabled={busy} onClick={onClear}>
        Clear
      </Button>
    </Toolbar>
  );
}
