import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { ReactNode } from 'react';

interface SectionProps {
  /** Also the id stem of the header and the region. */
  id: string;
  title: string;
  count?: number;
  loading?: boolean;
  children: ReactNode;
}

/** One of the page's expandable sections (open at first), with its count beside the title. */
export function Section({ id, title, count, loading = false, children }: SectionProps) {
  return (
    <Accordion defaultExpanded disableGutters sx={{ mb: 2, '&::before': { display: 'none' } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`${id}-content`} id={`${id}-header`}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {count !== undefined && <Chip size="small" label={count} aria-hidden sx={{ ml: 1.5, alignSelf: 'center' }} />}
      </AccordionSummary>
      <AccordionDetails id={`${id}-content`} sx={{ p: 0 }}>
        {loading && <LinearProgress aria-label={`Loading ${title.toLowerCase()}`} />}
        {children}
      </AccordionDetails>
    </Accordion>
  );
}
