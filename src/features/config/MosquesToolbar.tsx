import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { useEffect, useRef, useState } from 'react';
import type { ParamUpdate } from '../../lib/url-params';
import type { MosqueListView } from './mosque-list-view';

/** How long typing pauses before the search is sent: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

interface MosquesToolbarProps {
  view: MosqueListView;
  onView: (update: ParamUpdate) => void;
}

/** Search and filters of the mosque table; every change starts again from the first page. */
export function MosquesToolbar({ view, onView }: MosquesToolbarProps) {
  const [text, setText] = useState(view.q);
  const sent = useRef(view.q);
  // The address changed under us (Back, a pasted link): show its search.
  useEffect(() => {
    if (view.q !== sent.current) {
      sent.current = view.q;
      setText(view.q);
    }
  }, [view.q]);
  useEffect(() => {
    if (text === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text;
      onView({ q: text, page: null });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onView]);

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, p: 2, pb: 1 }}>
      <TextField
        size="small"
        label="Search mosques"
        placeholder="Name, ID, city or country"
        value={text}
        onChange={(event) => setText(event.target.value)}
        sx={{ flex: '1 1 260px', maxWidth: 420 }}
        slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> }, htmlInput: { maxLength: 100 } }}
      />
      <FilterSelect label="Status" value={view.active} options={STATUS_OPTIONS} onChange={(active) => onView({ active, page: null })} />
      <FilterSelect label="Broadcast" value={view.broadcast} options={BROADCAST_OPTIONS} onChange={(broadcast) => onView({ broadcast, page: null })} />
    </Box>
  );
}

const STATUS_OPTIONS = [
  ['true', 'Enabled'],
  ['false', 'Disabled'],
] as const;
const BROADCAST_OPTIONS = [
  ['inactive', 'Inactive'],
  ['playing', 'Playing'],
  ['ended', 'Ended'],
] as const;

interface FilterSelectProps {
  label: string;
  /** null: every value (All). */
  value: string | null;
  options: readonly (readonly [value: string, label: string])[];
  onChange: (value: string | null) => void;
}

/** One filter of the table: All, or one of its values. */
function FilterSelect({ label, value, options, onChange }: FilterSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? 'all'}
      onChange={(event) => onChange(event.target.value === 'all' ? null : event.target.value)}
      sx={{ minWidth: 140 }}
    >
      <MenuItem value="all">All</MenuItem>
      {options.map(([option, text]) => (
        <MenuItem key={option} value={option}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}
