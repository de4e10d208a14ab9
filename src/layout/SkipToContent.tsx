import Link from '@mui/material/Link';

export const MAIN_CONTENT_ID = 'main-content';

/**
 * The first stop of the Tab key: jumps past the top bar and the sidebar's ten links to the page itself.
 * Hidden until focused. It moves focus by hand rather than through the URL's hash, which the router owns.
 */
export function SkipToContent() {
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (theme) => theme.zIndex.tooltip,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        outline: (theme) => `2px solid ${theme.palette.primary.light}`,
        whiteSpace: 'nowrap',
        // Visually hidden (still read and focusable) until focused; a link merely moved off screen showed in full-page screenshots.
        '&:not(:focus)': { clipPath: 'inset(50%)', width: '1px', height: '1px', overflow: 'hidden', p: 0 },
      }}
    >
      Skip to content
    </Link>
  );
}
