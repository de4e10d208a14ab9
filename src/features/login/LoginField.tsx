import Box from '@mui/material/Box';
import { styled } from '@mui/material/styles';

interface LoginFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
  disabled?: boolean;
  error?: string;
}

const Input = styled('input')(({ theme }) => ({
  width: '100%',
  boxSizing: 'border-box',
  padding: '14px',
  font: 'inherit',
  fontSize: '1rem',
  color: theme.palette.text.primary,
  background: 'transparent',
  border: '1px solid rgba(255, 255, 255, 0.23)',
  borderRadius: theme.shape.borderRadius,
  outline: 'none',
  transition: 'border-color 150ms, box-shadow 150ms',
  '&:hover:not(:disabled)': { borderColor: theme.palette.text.primary },
  '&:focus': { borderColor: theme.palette.primary.main, boxShadow: `inset 0 0 0 1px ${theme.palette.primary.main}` },
  '&[aria-invalid="true"]': { borderColor: theme.palette.error.main },
  '&:disabled': { color: theme.palette.text.disabled },
  '&:-webkit-autofill': {
    WebkitBoxShadow: `0 0 0 100px ${theme.palette.background.paper} inset`,
    WebkitTextFillColor: theme.palette.text.primary,
  },
}));

/**
 * A labelled native input styled like MUI's outlined field. MUI's input components would add several kilobytes
 * to the login page, the first thing an operator loads (docs/architecture.md budget); every other page uses TextField.
 */
export function LoginField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  autoFocus,
  disabled,
  error,
}: LoginFieldProps) {
  const helperId = `${id}-helper`;
  return (
    <Box sx={{ mt: 2 }}>
      <Box
        component="label"
        htmlFor={id}
        sx={{ display: 'block', mb: 0.75, typography: 'body2', color: error ? 'error.main' : 'text.secondary' }}
      >
        {label}
        <Box component="span" aria-hidden sx={{ ml: 0.25 }}>
          *
        </Box>
      </Box>
      <Input
        id={id}
        name={id}
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        disabled={disabled}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? helperId : undefined}
      />
      {error && (
        <Box id={helperId} sx={{ mt: 0.5, mx: 1.75, typography: 'caption', color: 'error.main' }}>
          {error}
        </Box>
      )}
    </Box>
  );
}
