import { createRoot } from 'react-dom/client';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import TextField from '@mui/material/TextField';
import { ThemeProvider, createTheme } from '@mui/material/styles';

// The baseline of the console-size benchmark: the least a React + MUI page with what /login shows
// (a text field and a button) can ship.
createRoot(document.getElementById('root')!).render(
  <ThemeProvider theme={createTheme({ palette: { mode: 'dark' } })}>
    <CssBaseline />
    <TextField label="Username" />
    <Button variant="contained">Sign in</Button>
  </ThemeProvider>,
);
