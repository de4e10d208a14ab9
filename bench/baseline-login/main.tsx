import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { createRoot } from 'react-dom/client';

// The baseline of the sign-in benchmark (bench/login-visible.ts): the console's sign-in form as a bare
// React + MUI page, with the Roboto weights it shows, and nothing else (no router, session or API).
createRoot(document.getElementById('root')!).render(
  <ThemeProvider theme={createTheme({ palette: { mode: 'dark' } })}>
    <CssBaseline />
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper component="main" elevation={6} sx={{ width: '100%', maxWidth: 420, p: 4 }}>
        <Typography variant="h5" component="h1" align="center" sx={{ fontWeight: 600 }}>
          Capture Command Center
        </Typography>
        <Typography color="textSecondary" align="center" sx={{ mb: 2 }}>
          Sign in to the operator console
        </Typography>
        <Box component="form" noValidate>
          <TextField id="username" label="Username" fullWidth margin="normal" autoComplete="username" autoFocus />
          <TextField
            id="password"
            label="Password"
            type="password"
            fullWidth
            margin="normal"
            autoComplete="current-password"
          />
          <Button type="submit" fullWidth variant="contained" size="large" sx={{ mt: 2 }}>
            Login
          </Button>
        </Box>
      </Paper>
    </Box>
  </ThemeProvider>,
);
