import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { SidebarContent } from './SidebarContent';
import { SIDEBAR_WIDTH } from './nav-items';

interface SidebarProps {
  mobileOpen: boolean;
  onClose: () => void;
}

const paperSx = { boxSizing: 'border-box', width: SIDEBAR_WIDTH } as const;

/** 280 px: a temporary drawer below md, permanent from md up (docs/reference.md section 2, Shared layout). */
export function Sidebar({ mobileOpen, onClose }: SidebarProps) {
  return (
    <Box component="aside" sx={{ width: { md: SIDEBAR_WIDTH }, flexShrink: { md: 0 } }}>
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onClose}
        sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': paperSx }}
      >
        <SidebarContent onNavigate={onClose} />
      </Drawer>
      <Drawer variant="permanent" open sx={{ display: { xs: 'none', md: 'block' }, '& .MuiDrawer-paper': paperSx }}>
        <SidebarContent />
      </Drawer>
    </Box>
  );
}
