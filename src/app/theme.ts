import { createTheme } from '@mui/material/styles';

/** The console's dark theme (docs/reference.md section 1). Roboto is bundled through @fontsource, never a CDN. */
export const theme = createTheme({
  palette: {
    mode: 'dark',
    primary: { main: '#1976d2' },
    secondary: { main: '#dc004e' },
    background: { default: '#0a0e27', paper: '#1a1d35' },
  },
  typography: {
    fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  shape: { borderRadius: 8 },
  components: {
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
  },
});
