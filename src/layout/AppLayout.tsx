import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Toolbar from '@mui/material/Toolbar';
import { Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ChunkErrorBoundary } from '../app/ChunkErrorBoundary';
import { SessionTimeout } from '../auth/SessionTimeout';
import { Sidebar } from './Sidebar';
import { SIDEBAR_WIDTH } from './nav-items';
import { GeneratedPasswordBanner } from './GeneratedPasswordBanner';
import { MAIN_CONTENT_ID, SkipToContent } from './SkipToContent';
import { TopBar } from './TopBar';

function PageFallback() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label="Loading page" />
    </Box>
  );
}

/** The shared layout of every signed-in page. */
export function AppLayout() {
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipToContent />
      <TopBar onMenuClick={() => setMobileOpen((open) => !open)} />
      <Sidebar mobileOpen={mobileOpen} onClose={() => setMobileOpen(false)} />
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{
          outline: 'none',
          flexGrow: 1,
          minWidth: 0,
          width: { md: `calc(100% - ${SIDEBAR_WIDTH}px)` },
          p: { xs: 2, sm: 3 },
        }}
      >
        <Toolbar />
        <GeneratedPasswordBanner />
        <ChunkErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </ChunkErrorBoundary>
      </Box>
      <SessionTimeout />
    </Box>
  );
}
