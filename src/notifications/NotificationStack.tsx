import Alert from '@mui/material/Alert';
import Slide from '@mui/material/Slide';
import Stack from '@mui/material/Stack';
import { useLayoutEffect, useRef } from 'react';
import { PAGE_HEADER_ATTRIBUTE } from '../components/PageHeader';
import type { Notification } from './context';

/** Just below the fixed top bar: where notifications go when no page header is in view. */
export const STACK_MIN_TOP = 80;
const GAP_BELOW_HEADER = 8;

/** Top of the stack: below the page's header row (title and primary buttons) while it is on screen. */
export function stackTop(headerBottom: number | undefined): number {
  return headerBottom === undefined
    ? STACK_MIN_TOP
    : Math.max(STACK_MIN_TOP, Math.round(headerBottom + GAP_BELOW_HEADER));
}

/** The visible snackbars, newest at the bottom, anchored top right (docs/reference.md) and clear of the page's buttons. */
export default function NotificationStack({
  items,
  onClose,
}: {
  items: Notification[];
  onClose: (id: number) => void;
}) {
  const stack = useRef<HTMLDivElement>(null);
  // Measured when notifications come and go (the header's height depends on the page and the screen width),
  // and written straight to the element before it paints.
  useLayoutEffect(() => {
    const header = document.querySelector(`[${PAGE_HEADER_ATTRIBUTE}]`);
    if (stack.current) stack.current.style.top = `${stackTop(header?.getBoundingClientRect().bottom)}px`;
  }, [items.length]);
  return (
    <Stack
      spacing={1}
      ref={stack}
      data-testid="notification-stack"
      sx={{
        position: 'fixed',
        top: STACK_MIN_TOP,
        right: 24,
        zIndex: (theme) => theme.zIndex.snackbar,
        width: 'min(420px, calc(100vw - 48px))',
      }}
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
