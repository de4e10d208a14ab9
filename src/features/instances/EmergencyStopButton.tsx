import CircularProgress from '@mui/material/CircularProgress';
import Fab from '@mui/material/Fab';
import Tooltip from '@mui/material/Tooltip';
import PowerSettingsNewIcon from '@mui/icons-material/PowerSettingsNew';

interface EmergencyStopButtonProps {
  disabled: boolean;
  busy: boolean;
  onClick: () => void;
}

/** The floating emergency stop (docs/reference.md section 2): disabled when nothing runs or while busy. */
export function EmergencyStopButton({ disabled, busy, onClick }: EmergencyStopButtonProps) {
  return (
    <Tooltip title="Terminate every running and pending instance">
      <span style={{ position: 'fixed', right: 24, bottom: 24, zIndex: 1050 }}>
        <Fab variant="extended" color="error" onClick={onClick} disabled={disabled || busy} aria-label="Emergency Stop">
          {busy ? (
            <CircularProgress size={20} color="inherit" sx={{ mr: 1 }} />
          ) : (
            <PowerSettingsNewIcon sx={{ mr: 1 }} />
          )}
          Emergency Stop
        </Fab>
      </span>
    </Tooltip>
  );
}
