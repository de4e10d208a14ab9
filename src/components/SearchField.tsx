import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_MAX } from '../../contract/list-query';

/** How long typing pauses before the search is sent: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

interface SearchFieldProps {
  label: string;
  placeholder: string;
  /** The search the view shows (from the address). */
  value: string;
  /** Called once typing pauses, with the text to search for. */
  onSearch: (text: string) => void;
}

/** A list's search box: it sends what is typed once typing pauses, and follows the address when it changes under it (Back, a pasted link). */
export function SearchField({ label, placeholder, value, onSearch }: SearchFieldProps) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text;
      onSearch(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);

  return (
    <TextField
      size="small"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => setText(event.target.value)}
      sx={{ flex: '1 1 260px', maxWidth: 420 }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { maxLength: SEARCH_MAX },
      }}
    />
  );
}
