import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ArticleIcon from '@mui/icons-material/Article';
import InfoIcon from '@mui/icons-material/Info';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import StopIcon from '@mui/icons-material/Stop';
import { useState } from 'react';
import type { Instance } from '../../../contract/instances';

export interface InstanceActions {
  onDetails: (instance: Instance) => void;
  onLogs: (instance: Instance) => void;
  onTerminate: (instance: Instance) => void;
}

/** View Details, View Logs, and Terminate only when running (docs/reference.md sections 2 and 4). */
export function InstanceRowMenu({
  instance,
  onDetails,
  onLogs,
  onTerminate,
}: InstanceActions & { instance: Instance }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const run = (action: (instance: Instance) => void) => () => {
    setAnchor(null);
    action(instance);
  };
  const menuId = `instance-menu-${instance.id}`;
  return (
    <>
      <IconButton
        aria-label={`Actions for ${instance.name}`}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="true"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={run(onDetails)}>
          <ListItemIcon>
            <InfoIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>View Details</ListItemText>
        </MenuItem>
        <MenuItem onClick={run(onLogs)}>
          <ListItemIcon>
            <ArticleIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>View Logs</ListItemText>
        </MenuItem>
        {instance.state === 'running' && (
          <MenuItem onClick={run(onTerminate)} sx={{ color: 'error.main' }}>
            <ListItemIcon sx={{ color: 'inherit' }}>
              <StopIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Terminate</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
