import Alert from '@mui/material/Alert';
import Slide from '@mui/material/Slide';
import Stack from '@mui/material/Stack';
import type { Notification } from './context';

/** The visible snackbars, newest at the bottom, anchored top right. */
export default function NotificationStack({ items, onClose }: { items: Notification[]; onClose: (id: number) => void }) {
  return (
    <Stack
      spacing={1}
      sx={{ position: 'fixed', top: 80, right: 24, zIndex: (theme) => theme.zIndex.snackbar, width: 'min(420px, calc(100vw - 48px))' }}
    >
      {items.map((item) => (
        <Slide key={item.id} direction="left" in={item.open} mountOnEnter unmountOnExit>
          <Alert
            severity={item.severity}
            variant="filled"
            elevation={6}
            onClose={() => onClose(item.id)}
            data-severity={item.severity}
          >
            {item.message}
          </Alert>
        </Slide>
      ))}
    </Stack>
  );
}
