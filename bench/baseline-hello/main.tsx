import { createRoot } from 'react-dom/client';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';

// The baseline of the console-size benchmark: the least a React + MUI page can ship.
createRoot(document.getElementById('root')!).render(
  <ThemeProvider theme={createTheme({ palette: { mode: 'dark' } })}>
    <CssBaseline />
    <Button variant="contained">Hello</Button>
  </ThemeProvider>,
);
