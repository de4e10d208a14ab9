import Alert from '@mui/material/Alert';
import type { SxProps, Theme } from '@mui/material/styles';

interface ErrorBannerProps {
  message: string | null | undefined;
  onClose?: () => void;
  sx?: SxProps<Theme>;
}

/** A page's error in a dismissible banner; renders nothing without a message. */
export function ErrorBanner({ message, onClose, sx }: ErrorBannerProps) {
  if (!message) return null;
  return (
    <Alert severity="error" onClose={onClose} sx={[{ mb: 2 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      {message}
    </Alert>
  );
}
