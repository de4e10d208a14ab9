import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { passwordStrength } from '../../lib/password-strength';

/** Shown once a new password is typed (docs/reference.md section 4, Password strength). */
export function StrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const strength = passwordStrength(password);
  return (
    <Box sx={{ mt: 1, mb: 1 }} data-testid="strength-meter">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2" color="textSecondary">
          Password strength
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 500, color: `${strength.color}.main` }}>
          {strength.label}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={strength.percent}
        color={strength.color}
        aria-label={`Password strength: ${strength.label}`}
        sx={{ height: 8, borderRadius: 4 }}
      />
    </Box>
  );
}
